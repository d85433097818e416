import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.ts';
import type { Executor } from '../repositories/executor.ts';
import { deleteAttemptFailures, deleteAttemptFailuresBefore, insertAttemptFailures, listAttemptFailures, lockAttemptCounters } from '../repositories/attempt-failures.ts';

/**
 * Throttling of password guesses (sign-in, change-password, two-factor codes) that slows
 * attackers without letting a stranger lock the owner out (docs/security.md). Failures are counted
 * in a sliding window per (account, network), per account, per network and per (account, known
 * device), where a network is the client's IPv4 address or its IPv6 /64.
 *
 * - A network over its failure budget across all accounts (`networkFreeFailures`) is slowed for
 *   every account: each further failure holds it for a delay that doubles from
 *   `networkBaseDelayMs` up to `networkMaxDelayMs`, counted from its last failure. This is what
 *   stops one address spraying a common password over many accounts.
 * - A network that has failed for an account is also held while it has `maxFailuresPerPair`
 *   failures for that account, or while the account is cooling down: after `accountFreeFailures`
 *   failures from anywhere, each further one holds the failing networks for a delay that doubles
 *   from `accountBaseDelayMs` up to `accountMaxDelayMs`, counted from the last failure.
 * - The owner is never held: an attempt presenting a known-device cookie for the account (OWASP
 *   "device cookies") is judged only on that device's own failures, and is let through until it
 *   has `maxFailuresPerDevice` of them (then it is judged as any unknown browser).
 * - Delays, not locks: they end on their own, and refused attempts do not extend them.
 * - An attempt counts as a failure from the moment it starts (parallel guesses see each other);
 *   a correct password forgives the failures of its own (account, network) and device.
 *
 * Failures live in the database (DatabaseAttemptThrottle): every instance sees the same failures,
 * and a restart forgets none.
 */
export interface ThrottlePolicy {
  windowMs: number;
  maxFailuresPerPair: number;
  accountFreeFailures: number;
  accountBaseDelayMs: number;
  accountMaxDelayMs: number;
  networkFreeFailures: number;
  networkBaseDelayMs: number;
  networkMaxDelayMs: number;
  maxFailuresPerDevice: number;
}

export const DEFAULT_LOGIN_THROTTLE: ThrottlePolicy = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerPair: 5,
  accountFreeFailures: 4,
  accountBaseDelayMs: 1000,
  accountMaxDelayMs: 15 * 60 * 1000,
  networkFreeFailures: 10,
  networkBaseDelayMs: 2000,
  networkMaxDelayMs: 15 * 60 * 1000,
  maxFailuresPerDevice: 10,
};

export interface AttemptKey {
  /** What is being guessed: a normalized email for sign-in, an account id for change-password. */
  account: string;
  /** The client address (request.ip). */
  ip: string;
  /** The id of the known device the browser presented for this account, if any. */
  device?: string | null;
}

export type AttemptGate =
  | { allowed: false; retryAfterMs: number; reason: 'pair' | 'network' | 'account' }
  | {
      allowed: true;
      /** Judged as the account's known device (its own budget), not as a stranger. */
      knownDevice: boolean;
      /** The password was right: forgive this (account, network) and device. */
      succeeded(): Promise<void>;
      /** The attempt could not be judged (a server error): do not count it. */
      abandon(): Promise<void>;
    };

export interface AttemptThrottle {
  /** Decides whether an attempt may be judged; when it may, counts it as a failure until told otherwise. */
  begin(key: AttemptKey): Promise<AttemptGate>;
}

/** The unit counted per client: an IPv4 address, or an IPv6 /64 (one subscriber's usual share). */
export function networkOf(ip: string): string {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) !== 6) return bare;
  const address = ipaddr.IPv6.parse(bare);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(':')}::/64`;
}

interface Failure {
  t: number;
  account: string;
  net: string;
}

interface CounterKeys {
  pairKey: string;
  accountKey: string;
  netKey: string;
  deviceKey: string | null;
}

/**
 * The counters an attempt of `account` from `net` is counted under. JSON keeps the parts
 * apart whatever the account holds, in text PostgreSQL accepts (it refuses NUL characters).
 */
function counterKeys(account: string, net: string, device: string | null | undefined): CounterKeys {
  return {
    pairKey: `p${JSON.stringify([account, net])}`,
    accountKey: `a${JSON.stringify(account)}`,
    netKey: `n${JSON.stringify(net)}`,
    deviceKey: device ? `d${JSON.stringify([account, device])}` : null,
  };
}

/** A delay that doubles from `base` up to `max` for each failure beyond `free`. */
function progressiveDelay(free: number, base: number, max: number, failures: number): number {
  if (failures <= free) return 0;
  const doublings = Math.min(failures - free - 1, 40);
  return Math.min(base * 2 ** doublings, max);
}

/**
 * The policy itself, shared by both stores: given the recent failures (oldest first, inside the
 * window) of the pair, the account and the network, the refusal, or null when the attempt may run.
 */
function judgeAttempt(
  policy: ThrottlePolicy,
  now: number,
  pair: readonly Pick<Failure, 't'>[],
  byAccount: readonly Pick<Failure, 't'>[],
  byNet: readonly Pick<Failure, 't'>[],
): Extract<AttemptGate, { allowed: false }> | null {
  const { windowMs, maxFailuresPerPair } = policy;
  // The network's own delay holds it for every account, failed on or not.
  const netDelay = progressiveDelay(policy.networkFreeFailures, policy.networkBaseDelayMs, policy.networkMaxDelayMs, byNet.length);
  const netFree = netDelay > 0 ? byNet[byNet.length - 1]!.t + netDelay : now;
  // The holds of a network that has failed for this account: allowed once the pair is clean, or
  // once both holds are over.
  let pairAllowedAt = now;
  let pairReason: 'pair' | 'account' = 'pair';
  if (pair.length > 0) {
    const pairFree = pair.length >= maxFailuresPerPair ? pair[pair.length - maxFailuresPerPair]!.t + windowMs : now;
    const delay = progressiveDelay(policy.accountFreeFailures, policy.accountBaseDelayMs, policy.accountMaxDelayMs, byAccount.length);
    const accountFree = delay > 0 ? byAccount[byAccount.length - 1]!.t + delay : now;
    const clean = pair[pair.length - 1]!.t + windowMs;
    pairAllowedAt = Math.min(clean, Math.max(pairFree, accountFree));
    pairReason = pairFree >= accountFree ? 'pair' : 'account';
  }
  const allowedAt = Math.max(netFree, pairAllowedAt);
  if (allowedAt <= now) return null;
  return { allowed: false, retryAfterMs: allowedAt - now, reason: netFree >= pairAllowedAt ? 'network' : pairReason };
}

/** Whether an attempt with a known device is judged on that device's own budget. */
function deviceTrusted(policy: ThrottlePolicy, byDevice: readonly unknown[] | null): boolean {
  return byDevice !== null && byDevice.length < policy.maxFailuresPerDevice;
}

/** The keys a failure is written under: a known device's failures do not spend the network's budget. */
function failureKeys(keys: CounterKeys, trusted: boolean): string[] {
  return trusted ? [keys.deviceKey!, keys.accountKey] : [keys.pairKey, keys.accountKey, keys.netKey];
}

/** "5 seconds", "1 minute", "15 minutes". */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The 429 for a refused attempt: `retry_after_seconds` in the body, and the error handler's Retry-After header. */
export function attemptRefused(retryAfterMs: number, lead: string): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('RATE_LIMITED', `${lead} Try again in ${waitText(retryAfterMs)}.`, 429, { retry_after_seconds: seconds });
}

/** Newest failures read per counter: every threshold and the delay's saturation point fit in it. */
const DB_LIST_CAP = 64;

/**
 * The same policy over the attempt_failures table, shared by every instance. Each attempt writes
 * its three failure rows before its password is checked (parallel guesses see each other) and
 * removes them when told it succeeded or could not be judged.
 */
export class DatabaseAttemptThrottle implements AttemptThrottle {
  private readonly policy: ThrottlePolicy;
  private lastPrune = 0;

  constructor(
    private readonly db: Executor,
    policy: Partial<ThrottlePolicy> = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.policy = { ...DEFAULT_LOGIN_THROTTLE, ...policy };
  }

  async begin({ account, ip, device }: AttemptKey): Promise<AttemptGate> {
    const now = this.clock();
    const net = networkOf(ip);
    const keys = counterKeys(account, net, device);
    const all = [keys.pairKey, keys.accountKey, keys.netKey, ...(keys.deviceKey ? [keys.deviceKey] : [])];
    const sinceIso = new Date(now - this.policy.windowMs).toISOString();
    const attemptId = randomUUID();
    const judged = await this.db.transaction().execute(async (trx) => {
      // Parallel attempts on the same counters are judged one after the other, each seeing the
      // failures the others wrote: ten guesses sent at once are not all judged on the same count.
      await lockAttemptCounters(trx, all);
      const rows = await listAttemptFailures(trx, all, sinceIso);
      const of = (key: string) =>
        rows
          .filter((r) => r.key === key)
          .slice(-DB_LIST_CAP)
          .map((r) => ({ t: Date.parse(r.at) }));
      const trusted = deviceTrusted(this.policy, keys.deviceKey ? of(keys.deviceKey) : null);
      if (!trusted) {
        const refusal = judgeAttempt(this.policy, now, of(keys.pairKey), of(keys.accountKey), of(keys.netKey));
        if (refusal) return { refusal, trusted };
      }
      const at = new Date(now).toISOString();
      await insertAttemptFailures(
        trx,
        failureKeys(keys, trusted).map((key) => ({ attempt_id: attemptId, key, account, net, at })),
      );
      return { refusal: null, trusted };
    });
    if (judged.refusal) return judged.refusal;
    if (now - this.lastPrune > 60_000) {
      this.lastPrune = now;
      await deleteAttemptFailuresBefore(this.db, sinceIso);
    }

    let settled = false;
    return {
      allowed: true,
      knownDevice: judged.trusted,
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.db.transaction().execute(async (trx) => {
          await deleteAttemptFailures(trx, { key: keys.pairKey });
          if (keys.deviceKey) await deleteAttemptFailures(trx, { key: keys.deviceKey });
          await deleteAttemptFailures(trx, { key: keys.accountKey, net });
          await deleteAttemptFailures(trx, { key: keys.netKey, account });
        });
      },
      abandon: async () => {
        if (settled) return;
        settled = true;
        await deleteAttemptFailures(this.db, { attemptId });
      },
    };
  }
}
