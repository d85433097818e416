/**
 * Wake-ups between instances on PostgreSQL (README "Running several instances"): after a
 * transaction that wrote commits, its process sends NOTIFY chime_changes (at most one per
 * NOTIFY_COALESCE_MS, so a burst of deliveries sends a handful); every other process LISTENs and
 * re-arms its scheduler at once. A reminder created on one instance fires on time on any, without
 * each instance polling the database.
 *
 * The payload is the sender's id, so a process ignores its own notifications: its own writers
 * already wake its scheduler directly.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { loadPg } from '../lib/load-on-use.ts';

const CHANNEL = 'chime_changes';
const NOTIFY_COALESCE_MS = 10;
const RECONNECT_MS = 1000;

export class PgChangeFeed {
  private readonly id = randomUUID();
  private readonly listeners = new Set<() => void>();
  private notifyTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    /** Runs the NOTIFY (on a connection that is not queued behind the application's queries). */
    private readonly query: (text: string, values: unknown[]) => Promise<unknown>,
  ) {}

  /** A transaction that wrote committed (or a write outside one completed): tell the other instances, soon. */
  announce(): void {
    if (this.notifyTimer || this.closed) return;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      this.query('select pg_notify($1, $2)', [CHANNEL, this.id]).catch(() => {
        /* the others' 30 s safety net still finds the work; nothing is lost */
      });
    }, NOTIFY_COALESCE_MS);
    this.notifyTimer.unref();
  }

  /** Calls `onChange` whenever another process committed a write; the returned function stops it. */
  subscribe(onChange: () => void): () => void {
    this.listeners.add(onChange);
    if (!this.client && !this.reconnectTimer) void this.connect();
    return () => this.listeners.delete(onChange);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.listeners.clear();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new (loadPg().Client)({ connectionString: this.url, application_name: 'chime-listen' });
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.payload !== this.id) this.fire();
    });
    client.on('error', () => this.retry(client));
    client.on('end', () => this.retry(client));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      // Writes made while we were not listening (first start, a lost connection) were not heard.
      this.fire();
    } catch {
      this.retry(client);
    }
  }

  private retry(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    client.end().catch(() => {});
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private fire(): void {
    for (const listener of this.listeners) listener();
  }
}
