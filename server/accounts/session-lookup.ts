/**
 * The live session a request's token names, read for every signed-in request.
 *
 * On PostgreSQL each lookup was a statement of its own on a pooled connection, ahead of whatever
 * the request asked for. The instance remembers the
 * sessions it read, each with the account's change token read before it (server/db/pg-changes.ts),
 * and answers from memory while that token has not moved. A session that ends or changes notifies
 * its account (migration 2026-11-30-001), and the token comes back only after every notice of a
 * commit acknowledged before it was asked, so a sign-out or a revocation on any instance is seen
 * by the next request here. The token's round trip is shared by the requests in flight, where the
 * lookup was one each. Expiry is checked against the clock at every use.
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
  /** Moves whenever a change of this account was committed (PostgreSQL: LISTEN/NOTIFY). */
  accountChangeToken(accountId: string): Promise<string>;
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
  const remembered = new Map<string, { session: LiveSession; changeToken: string }>();

  return {
    async find(token) {
      const hash = sha256Hex(token);
      const now = nowIso();
      const known = remembered.get(hash);
      let accountId: string;
      let changeToken: string;
      if (known) {
        accountId = known.session.account_id;
        changeToken = await deps.accountChangeToken(accountId);
        if (changeToken === known.changeToken && known.session.expires_at > now) return { session: known.session, accountChangeToken: changeToken };
        remembered.delete(hash);
      } else {
        // Whose session it is, to know which account's token to watch; the read that is kept
        // comes after that token, below.
        const first = await findLiveSessionByHash(deps.db, hash, now);
        if (!first) return undefined;
        accountId = first.account_id;
        changeToken = await deps.accountChangeToken(accountId);
      }
      // Read after the token: a change committed later moves the token before this copy's next use.
      const session = await findLiveSessionByHash(deps.db, hash, now);
      if (session?.account_id !== accountId) return session && { session };
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(hash, { session, changeToken });
      return { session, accountChangeToken: changeToken };
    },
    touched(token, lastUsedAt, network) {
      const known = remembered.get(sha256Hex(token));
      if (known) known.session = { ...known.session, last_used_at: lastUsedAt, network };
    },
  };
}
