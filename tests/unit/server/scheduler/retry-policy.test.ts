/**
 * The retry policy alone (server/scheduler/retry-policy.ts, docs/webhooks.md "Payload" and
 * "Delivery history and problems"): pure decisions, with the jitter drawn by the test.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, disableAfterFailures, FAILING_STREAK, MAX_RETRY_AFTER_MS, nextAttempt } from '../../../../server/scheduler/retry-policy.ts';
import type { SendResult } from '../../../../server/scheduler/types.ts';

const NOW = Date.UTC(2026, 10, 27, 9, 0, 0);
const fail5xx: SendResult = { ok: false, retryable: true, code: 'WEBHOOK_HTTP_5XX', error: 'HTTP 503 from x', httpStatus: 503 };
const middle = () => 0.5; // no jitter
const top = () => 0.999999; // +20 %
const bottom = () => 0; // -20 %

describe('nextAttempt', () => {
  it('delivered is delivered', () => {
    expect(nextAttempt({ ok: true, httpStatus: 204 }, 1, NOW)).toEqual({ outcome: 'delivered' });
  });

  it('retries after 10 s, 1 min, 5 min, 30 min and 2 h, then gives up', () => {
    const delays = [1, 2, 3, 4, 5].map((attempt) => {
      const d = nextAttempt(fail5xx, attempt, NOW, DEFAULT_RETRY_POLICY, middle);
      return d.outcome === 'retrying' ? d.nextAttemptMs - NOW : null;
    });
    expect(delays).toEqual([10_000, 60_000, 300_000, 1_800_000, 7_200_000]);
    expect(nextAttempt(fail5xx, 6, NOW, DEFAULT_RETRY_POLICY, middle)).toEqual({ outcome: 'failed', disable: null });
  });

  it('jitters each delay by up to 20 % either way', () => {
    const high = nextAttempt(fail5xx, 1, NOW, DEFAULT_RETRY_POLICY, top);
    const low = nextAttempt(fail5xx, 1, NOW, DEFAULT_RETRY_POLICY, bottom);
    expect(high).toEqual({ outcome: 'retrying', nextAttemptMs: NOW + 12_000 });
    expect(low).toEqual({ outcome: 'retrying', nextAttemptMs: NOW + 8_000 });
  });

  it('honours a longer Retry-After, never a shorter one, and caps it at a day', () => {
    const longer = nextAttempt({ ...fail5xx, retryAfterMs: 45_000 }, 1, NOW, DEFAULT_RETRY_POLICY, middle);
    expect(longer).toEqual({ outcome: 'retrying', nextAttemptMs: NOW + 45_000 });
    const shorter = nextAttempt({ ...fail5xx, retryAfterMs: 1_000 }, 1, NOW, DEFAULT_RETRY_POLICY, middle);
    expect(shorter).toEqual({ outcome: 'retrying', nextAttemptMs: NOW + 10_000 });
    const week = nextAttempt({ ...fail5xx, retryAfterMs: 7 * 86_400_000 }, 1, NOW, DEFAULT_RETRY_POLICY, middle);
    expect(week).toEqual({ outcome: 'retrying', nextAttemptMs: NOW + MAX_RETRY_AFTER_MS });
  });

  it('a permanent failure fails at once without disabling', () => {
    expect(nextAttempt({ ok: false, retryable: false, code: 'WEBHOOK_HTTP_4XX', error: 'HTTP 400 from x', httpStatus: 400 }, 1, NOW)).toEqual({ outcome: 'failed', disable: null });
  });

  it('a target gone for good (410) fails at once and disables its destination, with its code and detail', () => {
    const gone: SendResult = { ok: false, retryable: false, code: 'WEBHOOK_GONE', error: 'HTTP 410 from x: the endpoint is gone', httpStatus: 410, disableDestination: true };
    expect(nextAttempt(gone, 1, NOW)).toEqual({ outcome: 'failed', disable: { code: 'WEBHOOK_GONE', reason: 'HTTP 410 from x: the endpoint is gone' } });
  });

  it('follows the budget it is given (tests shorten it)', () => {
    const policy = { retryDelaysMs: [30], retryJitter: 0 };
    expect(nextAttempt(fail5xx, 1, NOW, policy)).toEqual({ outcome: 'retrying', nextAttemptMs: NOW + 30 });
    expect(nextAttempt(fail5xx, 2, NOW, policy)).toEqual({ outcome: 'failed', disable: null });
  });
});

describe('disableAfterFailures', () => {
  it(`disables after ${FAILING_STREAK} failed deliveries in a row, not before, not across a success`, () => {
    expect(FAILING_STREAK).toBe(5);
    expect(disableAfterFailures(['failed', 'failed', 'failed', 'failed'])).toBeNull();
    expect(disableAfterFailures(['failed', 'failed', 'failed', 'failed', 'delivered'])).toBeNull();
    expect(disableAfterFailures(['failed', 'failed', 'failed', 'failed', 'failed'])).toEqual({ code: 'DESTINATION_FAILING', reason: 'The last 5 deliveries failed' });
  });
});
