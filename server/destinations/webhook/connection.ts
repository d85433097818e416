/** A webhook sender's connections: the SSRF-guarded undici agent (a pool per origin), its timeout and the requests in flight. */
import type { Agent } from 'undici';
import { createGuardedAgent, type GuardOptions } from '../../net/ssrf-guard.ts';
import { createInFlightRequests, type InFlightRequests } from './in-flight.ts';

/** undici's timers are coarse: set past the deadline so the sweeper decides (see dispatchPost in post.ts). */
const UNDICI_SLACK_MS = 2_000;

export type ConnectionOptions = Pick<GuardOptions, 'allowPrivateTargets' | 'lookup'>;

/** What every post reads; retuning swaps the agent and the timeout in place. */
export interface WebhookConnection {
  readonly options: ConnectionOptions;
  agent: Agent;
  /** Whole request (connect, headers and body). */
  timeoutMs: number;
  connectionsPerOrigin: number;
  /** The error of a time-out, built when the timeout changes rather than per request. */
  timeoutText: string;
  readonly inFlight: InFlightRequests;
}

// The deadline in dispatchPost is the one authority on time-outs. undici's own timers (coarse, up
// to about a second late) only back it up, so they are set past it and never decide a race.
function guardedAgent(options: ConnectionOptions, timeoutMs: number, connectionsPerOrigin: number): Agent {
  return createGuardedAgent({
    allowPrivateTargets: options.allowPrivateTargets,
    connectTimeoutMs: timeoutMs + UNDICI_SLACK_MS,
    connectionsPerOrigin,
    headersTimeoutMs: timeoutMs + UNDICI_SLACK_MS,
    bodyTimeoutMs: timeoutMs + UNDICI_SLACK_MS,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
}

function timeoutTextOf(timeoutMs: number): string {
  return `Timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`}`;
}

export function openWebhookConnection(options: ConnectionOptions, timeoutMs: number, connectionsPerOrigin: number): WebhookConnection {
  return {
    options,
    agent: guardedAgent(options, timeoutMs, connectionsPerOrigin),
    timeoutMs,
    connectionsPerOrigin,
    timeoutText: timeoutTextOf(timeoutMs),
    inFlight: createInFlightRequests(timeoutMs),
  };
}

export function retuneWebhookConnection(connection: WebhookConnection, timeoutMs: number, connectionsPerOrigin: number): void {
  connection.timeoutMs = timeoutMs;
  connection.connectionsPerOrigin = connectionsPerOrigin;
  connection.timeoutText = timeoutTextOf(timeoutMs);
  connection.inFlight.retime(timeoutMs);
  // Requests in flight finish on the old agent (close() waits for them); new ones use the new.
  const old = connection.agent;
  connection.agent = guardedAgent(connection.options, timeoutMs, connectionsPerOrigin);
  old.close().catch(() => old.destroy());
}

export async function closeWebhookConnection(connection: WebhookConnection): Promise<void> {
  connection.inFlight.stopSweeping();
  await connection.agent.close().catch(() => connection.agent.destroy());
}
