import { randomBytes } from 'node:crypto';

/**
 * Short-lived, single-use server-side records keyed by a random value that only the browser holds
 * (in an HttpOnly cookie). Chime is one process over one SQLite file, so memory is enough; a
 * restart only means "sign in with Discord again".
 */
export class ExpiringStore<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    /** Bounds memory when someone requests authorize URLs in a loop. */
    private readonly maxEntries = 10_000,
  ) {}

  /** Stores `value` under a new random key and returns the key. */
  create(value: T, now = Date.now()): string {
    if (this.entries.size >= this.maxEntries) this.sweep(now);
    while (this.entries.size >= this.maxEntries) {
      // Still full of live entries: drop the oldest (Map keeps insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    const key = randomBytes(32).toString('base64url');
    this.entries.set(key, { value, expires: now + this.ttlMs });
    return key;
  }

  peek(key: string | undefined | null, now = Date.now()): T | null {
    if (!key) return null;
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expires <= now) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  /** Returns the value and forgets it: states and tickets are single-use. */
  take(key: string | undefined | null, now = Date.now()): T | null {
    const value = this.peek(key, now);
    if (key) this.entries.delete(key);
    return value;
  }

  delete(key: string | undefined | null): void {
    if (key) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}

export interface OAuthState {
  mode: 'login' | 'link';
  /** The signed-in account a link binds to (mode link only). */
  accountId: string | null;
}

export interface SetupTicket {
  accountId: string;
}

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
export const SETUP_TICKET_TTL_MS = 30 * 60 * 1000;
export const OAUTH_STATE_COOKIE = 'chime_oauth_state';
export const SETUP_COOKIE = 'chime_setup';
