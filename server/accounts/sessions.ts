import type { DB } from '../db/connection.ts';
import type { Session } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { newToken, sha256Hex } from '../lib/ids.ts';
import type { Executor } from '../repositories/executor.ts';
import { insertSession, listLiveSessions, revokeOtherSessions, revokeSession, revokeSessionOfAccount } from '../repositories/sessions.ts';
import { revokeAllAccessTokens } from './access-tokens.ts';
import { networkOf } from './login-throttle.ts';
import { describeUserAgent, type DeviceKind } from './user-agent.ts';

export { LONG_SESSION_MS, SHORT_SESSION_MS } from '../repositories/sessions.ts';

/**
 * Starts a session of `ttlMs` for the account: a new random bearer token, of which only the hash
 * is stored. The token is returned once, for the cookie and the answer.
 */
export async function openSession(
  db: Executor,
  accountId: string,
  ttlMs: number,
  userAgent?: string,
  ip?: string,
): Promise<{ token: string; session: Session }> {
  const token = newToken();
  const now = Date.now();
  const session = await insertSession(db, {
    account_id: accountId,
    token_hash: sha256Hex(token),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + ttlMs).toISOString(),
    user_agent: userAgent?.slice(0, 256) ?? null,
    network: ip ? networkOf(ip) : null,
  });
  return { token, session };
}

/** Ends one session (signing out): its token no longer authenticates. */
export async function closeSession(db: Executor, sessionId: string): Promise<void> {
  await revokeSession(db, sessionId);
}

/** A signed-in session as the account page lists it (docs/security.md "Sessions"). */
export interface SessionView {
  id: string;
  browser: string | null;
  os: string | null;
  device: DeviceKind;
  network: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  current: boolean;
}

/** The account's live sessions, newest first; `current` marks the one asking. */
export async function listSessions(db: Executor, accountId: string, currentSessionId: string | null): Promise<SessionView[]> {
  const sessions = await listLiveSessions(db, accountId);
  return sessions.map((s) => {
    const { browser, os, kind } = describeUserAgent(s.user_agent);
    return {
      id: s.id,
      browser,
      os,
      device: kind,
      network: s.network,
      created_at: s.created_at,
      last_seen_at: s.last_used_at ?? s.created_at,
      expires_at: s.expires_at,
      current: s.id === currentSessionId,
    };
  });
}

/** Signs one session of the account out; 404 SESSION_NOT_FOUND when it has none with this id. */
export async function endSession(db: Executor, accountId: string, sessionId: string): Promise<void> {
  if (!(await revokeSessionOfAccount(db, accountId, sessionId))) throw new AppError('SESSION_NOT_FOUND', 'This session is already signed out');
}

/** Signs every other session of the account out; answers how many. */
/**
 * "Sign out everywhere else": every other session ends, and the account's personal access tokens
 * with them (docs/api.md: a token dies with "sign out everywhere"), the panic button of an account
 * that may be in someone else's hands.
 */
export async function endOtherSessions(db: DB, accountId: string, currentSessionId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ended = await revokeOtherSessions(trx, accountId, currentSessionId);
    await revokeAllAccessTokens(trx, accountId);
    return ended;
  });
}
