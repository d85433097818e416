import type { Session } from '../db/database.ts';
import { newToken, sha256Hex } from '../lib/ids.ts';
import type { Executor } from '../repositories/executor.ts';
import { insertSession, revokeSession } from '../repositories/sessions.ts';

export { LONG_SESSION_MS, SHORT_SESSION_MS } from '../repositories/sessions.ts';

/**
 * Starts a session of `ttlMs` for the account: a new random bearer token, of which only the hash
 * is stored. The token is returned once, for the cookie and the answer.
 */
export async function openSession(db: Executor, accountId: string, ttlMs: number, userAgent?: string): Promise<{ token: string; session: Session }> {
  const token = newToken();
  const now = Date.now();
  const session = await insertSession(db, {
    account_id: accountId,
    token_hash: sha256Hex(token),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + ttlMs).toISOString(),
    user_agent: userAgent?.slice(0, 256) ?? null,
  });
  return { token, session };
}

/** Ends one session (signing out): its token no longer authenticates. */
export async function closeSession(db: Executor, sessionId: string): Promise<void> {
  await revokeSession(db, sessionId);
}
