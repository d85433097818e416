/**
 * The Discord gateway's lock on PostgreSQL (docs/operations.md "Running several instances"): a session-level
 * advisory lock held on a connection of its own. When the holder dies, its connection closes and
 * PostgreSQL frees the lock at once, so another instance takes the gateway over at its next round
 * (renewEvery, 5 s) instead of waiting for a lease row to expire. When the connection drops under
 * a live holder, the holder hears it at once and stops the gateway.
 *
 * The leases table still names the holder (written after every round), so operators and the chaos
 * benchmark read who holds the gateway the same way on both databases; on PostgreSQL the row
 * informs and the lock decides.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { type LeaderLock, newLockOwner } from '../lib/leadership.ts';
import { loadPg } from '../lib/load-on-use.ts';
import type { Executor } from '../repositories/executor.ts';
import { recordLeaseHolder, releaseLease } from '../repositories/leases.ts';

/** A stable 64-bit key per job name: every instance of one database computes the same. */
export function advisoryKey(name: string): string {
  return createHash('sha256').update(`chime:${name}`).digest().readBigInt64BE(0).toString();
}

/**
 * Without a goodbye (power lost, a network partition) the server would keep a dead holder's
 * session, and its lock, for the system's TCP keepalive time: two hours on Linux. These settings
 * make it give up on a silent client within about 20 s. Ignored on a Unix socket, where a dead
 * process's connection always closes at once.
 */
const DEAD_PEER_SETTINGS =
  "select set_config('tcp_keepalives_idle', '5', false), set_config('tcp_keepalives_interval', '5', false), " +
  "set_config('tcp_keepalives_count', '3', false), set_config('tcp_user_timeout', '20000', false)";

export class PgAdvisoryLock implements LeaderLock {
  readonly owner = newLockOwner();
  private readonly key: string;
  private client: pg.Client | null = null;
  private held = false;
  private onLost: () => void = () => {};

  constructor(
    private readonly url: string,
    readonly name: string,
    /** For the informative lease row: the holder and until when it last confirmed. */
    private readonly db: Executor,
    private readonly timing: { ttlMs: number; renewEveryMs: number },
  ) {
    this.key = advisoryKey(name);
  }

  watch(onLost: () => void): void {
    this.onLost = onLost;
  }

  async hold(now: number): Promise<boolean> {
    try {
      const client = this.client ?? (await this.connect());
      if (this.held) {
        // Still our session, so still our lock (a second pg_try_advisory_lock would stack a count).
        await client.query('select 1');
      } else {
        const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1::bigint) as held', [this.key]);
        this.held = rows[0]?.held === true;
      }
    } catch {
      // The connection is broken or out of reach: whatever we held went with its session.
      this.abandon();
      return false;
    }
    if (this.held) {
      await recordLeaseHolder(this.db, this.name, this.owner, new Date(now + this.timing.ttlMs).toISOString()).catch(() => {});
    }
    return this.held;
  }

  async release(): Promise<void> {
    const client = this.client;
    const wasHeld = this.held;
    this.held = false;
    this.client = null;
    if (!client) return;
    try {
      if (wasHeld) await client.query('select pg_advisory_unlock($1::bigint)', [this.key]);
    } finally {
      await client.end().catch(() => {});
      if (wasHeld) await releaseLease(this.db, this.name, this.owner).catch(() => {});
    }
  }

  /**
   * Ends the session without unlocking, as a crash or a broken connection does: PostgreSQL frees
   * the lock with it.
   */
  abandon(): void {
    const client = this.client;
    this.held = false;
    this.client = null;
    client?.end().catch(() => {});
  }

  private async connect(): Promise<pg.Client> {
    const client = new (loadPg().Client)({
      connectionString: this.url,
      application_name: 'chime-gateway-lock',
      keepAlive: true,
      // As long as a lease row's holder may go without renewing: a slow database is not a lost lock.
      connectionTimeoutMillis: this.timing.ttlMs - this.timing.renewEveryMs,
      query_timeout: this.timing.ttlMs - this.timing.renewEveryMs,
    });
    const lost = () => {
      if (this.client !== client) return;
      const wasHeld = this.held;
      this.abandon();
      if (wasHeld) this.onLost();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(DEAD_PEER_SETTINGS);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    this.client = client;
    return client;
  }
}
