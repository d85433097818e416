/**
 * The live session a request's token names, read for every signed-in request.
 *
 * On PostgreSQL each lookup was a statement of its own on a pooled connection, ahead of whatever
 * the request asked for. The instance remembers the sessions it read, each with its account's
 * sessions token read before it (server/db/pg-changes.ts), and answers from memory while that
 * token has not moved. A session that ends or changes notifies `session:<account id>` (migrations
 * 2026-11-30-001 and -002), and the token comes back only after every notice of a commit
 * acknowledged before it was asked, so a sign-out or a revocation on any instance is seen by the
 * next request here. The account's reminders changing does not move it: a busy account's writes
 * leave its sessions remembered. The same round trip, shared by the requests in flight, brings the
 * account's own change token, which the request's cached list checks. Expiry is checked against
 * the clock at every use.
 *
 * On SQLite the lookup is a read of the file in this process: nothing to save.
 */
import type { DatabaseDialect } from '../db/connection.ts';
import { nowIso, sha256Hex } from '../lib/ids.ts';
import type { Executor } from '../repositories/executor.ts';
import { findLiveSessionByHash, type LiveSession } from '../repositories/sessions.ts';

/** Sessions remembered; beyond it the oldest read is forgotten (it is read again when used). */
const MAX_REMEMBERED = 10_000;

export interface SessionLookupDeps {
  db: Executor;
  dialect: DatabaseDialect;
  /** The account's change token, and its sessions' (PostgreSQL: LISTEN/NOTIFY), in one round trip. */
  accountAndSessionTokens(accountId: string): Promise<{ account: string; sessions: string }>;
}

export interface FoundSession {
  session: LiveSession;
  /**
   * The account's change token, read before the session (PostgreSQL; undefined on SQLite): the
   * request's other cached reads of the account (its reminder list) may check against it instead of
   * asking again, since it reflects every commit acknowledged before the request arrived.
   */
  accountChangeToken?: string;
}

export interface SessionLookup {
  /** The live session of `token`, or undefined. */
  find(token: string): Promise<FoundSession | undefined>;
  /** Says that this instance just recorded the session as used (its cached copy is current again). */
  touched(token: string, lastUsedAt: string, network: string | null): void;
}

export function createSessionLookup(deps: SessionLookupDeps): SessionLookup {
  if (deps.dialect === 'sqlite') {
    return {
      async find(token) {
        const session = await findLiveSessionByHash(deps.db, sha256Hex(token), nowIso());
        return session && { session };
      },
      touched: () => {},
    };
  }
  const remembered = new Map<string, { session: LiveSession; sessionsToken: string }>();

  return {
    async find(token) {
      const hash = sha256Hex(token);
      const now = nowIso();
      const known = remembered.get(hash);
      let accountId: string;
      let tokens: { account: string; sessions: string };
      if (known) {
        accountId = known.session.account_id;
        tokens = await deps.accountAndSessionTokens(accountId);
        if (tokens.sessions === known.sessionsToken && known.session.expires_at > now) return { session: known.session, accountChangeToken: tokens.account };
        remembered.delete(hash);
      } else {
        // Whose session it is, to know which account's tokens to watch; the read that is kept
        // comes after them, below.
        const first = await findLiveSessionByHash(deps.db, hash, now);
        if (!first) return undefined;
        accountId = first.account_id;
        tokens = await deps.accountAndSessionTokens(accountId);
      }
      // Read after the token: a change committed later moves the token before this copy's next use.
      const session = await findLiveSessionByHash(deps.db, hash, now);
      if (session?.account_id !== accountId) return session && { session };
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(hash, { session, sessionsToken: tokens.sessions });
      return { session, accountChangeToken: tokens.account };
    },
    touched(token, lastUsedAt, network) {
      const known = remembered.get(sha256Hex(token));
      if (known) known.session = { ...known.session, last_used_at: lastUsedAt, network };
    },
  };
}
