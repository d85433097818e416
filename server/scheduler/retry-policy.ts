/**
 * The retry policy (docs/webhooks.md "Payload" and "Delivery history and problems"), in one
 * pure function: what follows an attempt. Retryable failures (network errors, 5xx, 408, 429) are
 * tried again after 10 s, 1 min, 5 min, 30 min and 2 h, each +-20 % so the retries of one outage do
 * not arrive together, never sooner than the receiver's Retry-After (at most a day); after the last
 * one the delivery has failed. A target gone for good (410, a deleted Discord webhook) fails at once
 * and disables its destination, and so does a run of FAILING_STREAK failed deliveries in a row.
 */
import type { SendResult } from './types.ts';

export interface RetryPolicy {
  /** Wait before retry n (after failed attempt n); its length + 1 is the attempt budget. */
  retryDelaysMs: readonly number[];
  /** +-fraction applied to each delay. */
  retryJitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retryDelaysMs: [10_000, 60_000, 300_000, 1_800_000, 7_200_000],
  retryJitter: 0.2,
};

/** A Retry-After beyond this counts as this: a reminder retried days later is useless. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Failed deliveries in a row (each after all its retries) that disable a destination. */
export const FAILING_STREAK = 5;

/** Why a destination stops: a code the dashboard translates, and the detail kept for the owner. */
export interface DisableDecision {
  code: string;
  reason: string;
}

export type AttemptDecision =
  | { outcome: 'delivered' }
  | { outcome: 'retrying'; nextAttemptMs: number }
  | { outcome: 'failed'; disable: DisableDecision | null };

/**
 * What follows attempt `attempt` (1-based) that ended at `nowMs` with `result`. `random` in [0, 1)
 * draws the jitter.
 */
export function nextAttempt(result: SendResult, attempt: number, nowMs: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY, random: () => number = Math.random): AttemptDecision {
  if (result.ok) return { outcome: 'delivered' };
  if (result.disableDestination) return { outcome: 'failed', disable: { code: result.code, reason: result.error } };
  const delays = policy.retryDelaysMs;
  if (!result.retryable || attempt > delays.length) return { outcome: 'failed', disable: null };
  const base = delays[Math.min(attempt - 1, delays.length - 1)] ?? 0;
  const jittered = Math.round(base * (1 + (random() * 2 - 1) * policy.retryJitter));
  const retryAfter = Math.min(Math.max(result.retryAfterMs ?? 0, 0), MAX_RETRY_AFTER_MS);
  return { outcome: 'retrying', nextAttemptMs: nowMs + Math.max(jittered, retryAfter) };
}

/**
 * After a delivery failed for good: whether its destination stops, given the final outcomes of its
 * latest deliveries, newest first (this one included).
 */
export function disableAfterFailures(latestFinalOutcomes: readonly string[]): DisableDecision | null {
  if (latestFinalOutcomes.length < FAILING_STREAK) return null;
  if (latestFinalOutcomes.slice(0, FAILING_STREAK).some((o) => o !== 'failed')) return null;
  return { code: 'DESTINATION_FAILING', reason: `The last ${FAILING_STREAK} deliveries failed` };
}
