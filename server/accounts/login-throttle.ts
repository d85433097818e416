import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.ts';
import type { Executor } from '../repositories/executor.ts';
import { deleteAttemptFailures, deleteAttemptFailuresBefore, insertAttemptFailures, listAttemptFailures, lockAttemptCounters } from '../repositories/shared-state.ts';

/**
 * Throttling of password guesses (sign-in, change-password) that slows attackers without letting
 * a stranger lock the owner out. Failures are counted in a sliding window per (account, network),
 * per network and per account, where a network is the client's IPv4 address or its IPv6 /64.
 *
 * - A network with no recent failure for an account is never refused for that account: the owner,
 *   signing in from anywhere they have not mistyped, always has their password checked.
 * - A network that has failed for an account is refused (429) while any of these holds:
 *   it has `maxFailuresPerPair` failures for the account; it has `maxFailuresPerIp` failures
 *   over all accounts; or the account is cooling down: after `accountFreeFailures` failures from
 *   anywhere, each further one holds the failing networks for a delay that doubles from
 *   `accountBaseDelayMs` up to `accountMaxDelayMs`, counted from the last failure. A delay, not
 *   a lock: it ends on its own, and refused attempts do not extend it.
 * - A network over its cap (a shared NAT with a guesser behind it) is still let through for
 *   accounts it has not failed on; the caller is told, so it can skip the timing-equalising hash
 *   for unknown emails (registration already says whether an email is taken) and a guesser spraying
 *   made-up names cannot burn CPU.
 * - An attempt counts as a failure from the moment it starts (parallel guesses see each other);
 *   a correct password forgives the failures of its own (account, network).
 *
 * Two stores behind `AttemptThrottle`: the database one the routes use (every instance sees the
 * same failures, and a restart forgets none), and a bounded in-memory one (lists are short and the
 * oldest counters are dropped first under a flood of distinct names).
 */
export interface ThrottlePolicy {
  windowMs: number;
  maxFailuresPerPair: number;
  maxFailuresPerIp: number;
  accountFreeFailures: number;
  accountBaseDelayMs: number;
  accountMaxDelayMs: number;
}

export const DEFAULT_LOGIN_THROTTLE: ThrottlePolicy = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerPair: 5,
  maxFailuresPerIp: 20,
  accountFreeFailures: 4,
  accountBaseDelayMs: 1000,
  accountMaxDelayMs: 15 * 60 * 1000,
};

export interface AttemptKey {
  /** What is being guessed: a normalized email for sign-in, an account id for change-password. */
  account: string;
  /** The client address (request.ip). */
  ip: string;
}

export type AttemptGate =
  | { allowed: false; retryAfterMs: number; reason: 'pair' | 'ip' | 'account' }
  | {
      allowed: true;
      /** The network is over its own cap (let through because it has not failed on this account). */
      ipOverCap: boolean;
      /** The password was right: forgive this (account, network). */
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

/**
 * The three counters an attempt of `account` from `net` is counted under. JSON keeps the parts
 * apart whatever the account holds, in text PostgreSQL accepts (it refuses NUL characters).
 */
function counterKeys(account: string, net: string) {
  return { pairKey: `p${JSON.stringify([account, net])}`, accountKey: `a${JSON.stringify(account)}`, netKey: `n${JSON.stringify(net)}` };
}

/** How long the failing networks of an account with `failures` recent failures are held. */
function accountDelay(policy: ThrottlePolicy, failures: number): number {
  const { accountFreeFailures, accountBaseDelayMs, accountMaxDelayMs } = policy;
  if (failures <= accountFreeFailures) return 0;
  const doublings = Math.min(failures - accountFreeFailures - 1, 40);
  return Math.min(accountBaseDelayMs * 2 ** doublings, accountMaxDelayMs);
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
  if (pair.length === 0) return null;
  const { windowMs, maxFailuresPerPair, maxFailuresPerIp } = policy;
  // When each hold ends, if nothing new happens; the attempt is allowed once the pair is clean,
  // or once all three holds are over.
  const pairFree = pair.length >= maxFailuresPerPair ? pair[pair.length - maxFailuresPerPair]!.t + windowMs : now;
  const netFree = byNet.length >= maxFailuresPerIp ? byNet[byNet.length - maxFailuresPerIp]!.t + windowMs : now;
  const delay = accountDelay(policy, byAccount.length);
  const accountFree = delay > 0 ? byAccount[byAccount.length - 1]!.t + delay : now;
  const clean = pair[pair.length - 1]!.t + windowMs;
  const holdsEnd = Math.max(pairFree, netFree, accountFree);
  const allowedAt = Math.min(clean, holdsEnd);
  if (allowedAt <= now) return null;
  const reason = holdsEnd === pairFree ? 'pair' : holdsEnd === netFree ? 'ip' : 'account';
  return { allowed: false, retryAfterMs: allowedAt - now, reason };
}

const MAX_KEYS = 100_000;

export class MemoryAttemptThrottle implements AttemptThrottle {
  private readonly lists = new Map<string, Failure[]>();
  private readonly policy: ThrottlePolicy;
  /** Longest list worth keeping: every threshold and the delay's saturation point fit in it. */
  private readonly listCap: number;

  constructor(policy: Partial<ThrottlePolicy> = {}, private readonly clock: () => number = Date.now) {
    this.policy = { ...DEFAULT_LOGIN_THROTTLE, ...policy };
    const { maxFailuresPerPair, maxFailuresPerIp, accountFreeFailures } = this.policy;
    this.listCap = Math.max(64, maxFailuresPerPair, maxFailuresPerIp, accountFreeFailures + 40);
  }

  /** Keys held (after dropping expired ones); for tests and metrics. */
  get size(): number {
    this.pruneExpired(this.clock());
    return this.lists.size;
  }

  async begin({ account, ip }: AttemptKey): Promise<AttemptGate> {
    const now = this.clock();
    const net = networkOf(ip);
    const { maxFailuresPerIp } = this.policy;
    const { pairKey, accountKey, netKey } = counterKeys(account, net);
    const pair = this.recent(pairKey, now);
    const byAccount = this.recent(accountKey, now);
    const byNet = this.recent(netKey, now);

    const refusal = judgeAttempt(this.policy, now, pair, byAccount, byNet);
    if (refusal) return refusal;

    const ipOverCap = byNet.length >= maxFailuresPerIp;
    const failure: Failure = { t: now, account, net };
    for (const [key, list] of [
      [pairKey, pair],
      [accountKey, byAccount],
      [netKey, byNet],
    ] as const) {
      list.push(failure);
      if (list.length > this.listCap) list.splice(0, list.length - this.listCap);
      this.lists.set(key, list);
    }
    if (this.lists.size > MAX_KEYS) this.shrink(now);

    let settled = false;
    return {
      allowed: true,
      ipOverCap,
      succeeded: async () => {
        if (settled) return;
        settled = true;
        this.lists.delete(pairKey);
        this.removeWhere(accountKey, (f) => f.net === net);
        this.removeWhere(netKey, (f) => f.account === account);
      },
      abandon: async () => {
        if (settled) return;
        settled = true;
        for (const key of [pairKey, accountKey, netKey]) this.removeWhere(key, (f) => f === failure);
      },
    };
  }

  /** The failures of `key` still inside the window (oldest first); drops the expired ones. */
  private recent(key: string, now: number): Failure[] {
    const list = this.lists.get(key);
    if (!list) return [];
    let expired = 0;
    while (expired < list.length && now - list[expired]!.t >= this.policy.windowMs) expired++;
    if (expired > 0) list.splice(0, expired);
    if (list.length === 0) this.lists.delete(key);
    return list;
  }

  private removeWhere(key: string, match: (f: Failure) => boolean): void {
    const list = this.lists.get(key);
    if (!list) return;
    const kept = list.filter((f) => !match(f));
    if (kept.length) this.lists.set(key, kept);
    else this.lists.delete(key);
  }

  private pruneExpired(now: number): void {
    for (const key of [...this.lists.keys()]) this.recent(key, now);
  }

  /** Over the key budget: drop expired counters, then the oldest ones, down to 90 %. */
  private shrink(now: number): void {
    this.pruneExpired(now);
    if (this.lists.size <= MAX_KEYS) return;
    const excess = this.lists.size - Math.floor(MAX_KEYS * 0.9);
    let dropped = 0;
    for (const key of this.lists.keys()) {
      if (dropped++ >= excess) break;
      this.lists.delete(key);
    }
  }
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

  async begin({ account, ip }: AttemptKey): Promise<AttemptGate> {
    const now = this.clock();
    const net = networkOf(ip);
    const keys = counterKeys(account, net);
    const sinceIso = new Date(now - this.policy.windowMs).toISOString();
    const attemptId = randomUUID();
    const judged = await this.db.transaction().execute(async (trx) => {
      // Parallel attempts on the same counters are judged one after the other, each seeing the
      // failures the others wrote: ten guesses sent at once are not all judged on the same count.
      await lockAttemptCounters(trx, [keys.pairKey, keys.accountKey, keys.netKey]);
      const rows = await listAttemptFailures(trx, [keys.pairKey, keys.accountKey, keys.netKey], sinceIso);
      const of = (key: string) =>
        rows
          .filter((r) => r.key === key)
          .slice(-DB_LIST_CAP)
          .map((r) => ({ t: Date.parse(r.at) }));
      const byNet = of(keys.netKey);
      const refusal = judgeAttempt(this.policy, now, of(keys.pairKey), of(keys.accountKey), byNet);
      if (refusal) return { refusal, ipOverCap: false };
      const at = new Date(now).toISOString();
      await insertAttemptFailures(
        trx,
        [keys.pairKey, keys.accountKey, keys.netKey].map((key) => ({ attempt_id: attemptId, key, account, net, at })),
      );
      return { refusal: null, ipOverCap: byNet.length >= this.policy.maxFailuresPerIp };
    });
    if (judged.refusal) return judged.refusal;
    if (now - this.lastPrune > 60_000) {
      this.lastPrune = now;
      await deleteAttemptFailuresBefore(this.db, sinceIso);
    }

    let settled = false;
    return {
      allowed: true,
      ipOverCap: judged.ipOverCap,
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.db.transaction().execute(async (trx) => {
          await deleteAttemptFailures(trx, { key: keys.pairKey });
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
