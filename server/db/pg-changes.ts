/**
 * What changed, between instances on PostgreSQL (docs/operations.md "Running several instances"), by
 * LISTEN/NOTIFY alone. Triggers (migration 2026-11-27-002) send NOTIFY chime_changes with the
 * account's id whenever one of its reminders or destinations, or the account itself, changes, and
 * `session:<account id>` when one of its sessions ends or changes (migration 2026-11-30-002);
 * PostgreSQL delivers it when that transaction commits, whichever connection or instance made it
 * (the API, a delivery thread, psql). Each process holds one connection that LISTENs, and:
 *
 *  - wakes its schedulers (watchChanges), so a reminder created on one instance fires on time on
 *    any, without polling. Not for changes of its own pool's sessions: the code that made them
 *    wakes its scheduler itself, and a burst of deliveries would otherwise wake it for each one;
 *  - counts what it heard per key, for caches (token): a cached answer read after token T is
 *    current while the token is still T. Exact because a round trip on the listening connection
 *    comes back only after every notification of a transaction that committed before it was sent:
 *    PostgreSQL sends a session the notifications it was signalled before it answers its next
 *    query (and a commit signals the listeners before it is acknowledged).
 *
 * The listening connection is a session of its own, outside the pool: behind a pooler it needs
 * session mode. While it is down (a restart, a lost connection) tokens are never seen twice, so
 * caches miss rather than serve what may be stale, and the schedulers' own 30 s safety net goes on.
 */
import type pg from 'pg';
import { loadPg } from '../lib/load-on-use.ts';

const CHANNEL = 'chime_changes';
/**
 * Wake-ups are coalesced to at most one per this long: a burst of deliveries notifies a lot, and
 * under API load each write of this process's API thread reaches its delivery threads here too,
 * each wake-up a re-read of what is due. The writer's own instance wakes its scheduler directly
 * and at once; another instance learns of it within this long.
 */
const WAKE_COALESCE_MS = 100;
const RECONNECT_MS = 1000;
/** Keys (accounts, their sessions) remembered by their last change; beyond it all are forgotten at once (one cache miss each). */
const MAX_KEYS = 200_000;

export class PgChangeFeed {
  private readonly listeners = new Set<() => void>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private wakeTimer: ReturnType<typeof setTimeout> | null = null;
  /** Subscribers a change was heard for since they were last woken. */
  private readonly toWake = new Set<() => void>();
  private closed = false;

  /** Moves on every (re)connection: what happened while not listening was not heard. */
  private generation = 0;
  /** Notifications heard on this connection. */
  private heard = 0;
  /** Per key (the notice's payload: an account's id, or `session:<id>`), the `heard` count of its last notification. */
  private readonly lastHeard = new Map<string, number>();
  /** What a key not in lastHeard answers: `heard` when the map was last emptied. */
  private forgottenAt = 0;
  private unknown = 0;

  /** The round trip in flight, and the one queued behind it for callers that came during it. */
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    /** Whether a notifying backend (its process id) is one of this process's own pool's sessions. */
    private readonly isOwnSession: (pid: number) => boolean = () => false,
  ) {}

  /**
   * Changes whenever a notification was heard (of `accountId`, when given) since the last call:
   * after every commit that was acknowledged before this call. A token never seen before when the
   * listening connection cannot be reached.
   */
  async token(accountId?: string): Promise<string> {
    return (await this.tokens([accountId]))[0]!;
  }

  /**
   * token() for several keys after one round trip: an account's id, or `session:<account id>` for
   * its sessions (migration 2026-11-30-002), undefined for any change.
   */
  async tokens(keys: readonly (string | undefined)[]): Promise<string[]> {
    try {
      await this.sync();
    } catch {
      return keys.map(() => `unknown:${++this.unknown}`);
    }
    return keys.map((key) => `${this.generation}:${key === undefined ? this.heard : (this.lastHeard.get(key) ?? this.forgottenAt)}`);
  }

  /** Calls `onChange` soon after any change was committed; the returned function stops it. */
  subscribe(onChange: () => void): () => void {
    this.listeners.add(onChange);
    // Already listening: the new subscriber heard nothing so far, so it is woken once, as every
    // subscriber is when the connection is (re)established.
    if (this.client) setImmediate(() => this.listeners.has(onChange) && onChange());
    else this.connect().catch(() => {});
    return () => this.listeners.delete(onChange);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.listeners.clear();
    this.toWake.clear();
    const client = this.client ?? (await this.connecting?.catch(() => null));
    this.client = null;
    await client?.end().catch(() => {});
  }

  /** Resolves once every notification of a commit acknowledged before the call was heard. */
  private sync(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.roundTrip().finally(() => {
        this.inFlight = null;
      });
      return this.inFlight;
    }
    // The round trip in flight may have been answered before the caller's commit: the next one.
    this.queued ??= this.inFlight
      .catch(() => {})
      .then(() => {
        this.queued = null;
        return this.sync();
      });
    return this.queued;
  }

  private async roundTrip(): Promise<void> {
    const client = await this.connect();
    // Named: planned once for this session, not on each of the many round trips a busy API makes.
    await client.query({ name: 'chime_sync', text: 'select 1' });
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.closed) return Promise.reject(new Error('closed'));
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new (loadPg().Client)({ connectionString: this.url, application_name: 'chime-listen' });
    client.on('notification', (msg) => this.heardChange(msg.payload ?? '', this.isOwnSession(msg.processId)));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch (err) {
      client.end().catch(() => {});
      this.retryLater();
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('closed');
    }
    this.client = client;
    this.generation++;
    // Writes made while nobody listened (first start, a lost connection) were not heard.
    this.wake();
    return client;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => {});
    this.retryLater();
  }

  /** Listening again soon, if a scheduler is waiting to be woken; tokens connect on their own. */
  private retryLater(): void {
    if (this.closed || this.reconnectTimer || this.listeners.size === 0) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch(() => {});
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private heardChange(key: string, own: boolean): void {
    this.heard++;
    if (key) {
      if (this.lastHeard.size >= MAX_KEYS && !this.lastHeard.has(key)) {
        this.lastHeard.clear();
        this.forgottenAt = this.heard;
      }
      this.lastHeard.set(key, this.heard);
    }
    if (!own) this.wake();
  }

  /**
   * At once, then at most once per WAKE_COALESCE_MS while changes keep coming. A subscriber is
   * woken for the changes heard while it was subscribed: one that came later was woken on its own.
   */
  private wake(): void {
    for (const listener of this.listeners) this.toWake.add(listener);
    if (!this.wakeTimer) this.flushWakes();
  }

  private flushWakes(): void {
    if (this.toWake.size === 0) return;
    const due = [...this.toWake];
    this.toWake.clear();
    for (const listener of due) if (this.listeners.has(listener)) listener();
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.flushWakes();
    }, WAKE_COALESCE_MS);
    this.wakeTimer.unref();
  }
}
