import type { Session } from '../db/database.ts';
import { newId, nowIso, sha256Hex } from '../lib/ids.ts';
import type { Executor } from './executor.ts';
import { prepared } from './prepared.ts';

export const SHORT_SESSION_MS = 24 * 60 * 60 * 1000;
export const LONG_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

/** Stores a session by the hash of its token (the token itself is never stored). */
export async function insertSession(
  db: Executor,
  input: { account_id: string; token_hash: string; created_at: string; expires_at: string; user_agent: string | null },
): Promise<Session> {
  const session: Session = { id: newId(), last_used_at: null, ...input };
  await db.insertInto('sessions').values(session).execute();
  return session;
}

// Every authenticated request runs this.
const liveSessionByHash = prepared(['tokenHash', 'now'], (db, p: { tokenHash: string; now: string }) =>
  db.selectFrom('sessions').select(['id', 'account_id', 'expires_at', 'last_used_at']).where('token_hash', '=', p.tokenHash).where('expires_at', '>', p.now),
);

export async function findLiveSessionByToken(db: Executor, token: string) {
  return (await liveSessionByHash(db, { tokenHash: sha256Hex(token), now: nowIso() })).rows[0];
}

export async function touchSession(db: Executor, id: string) {
  await db.updateTable('sessions').set({ last_used_at: nowIso() }).where('id', '=', id).execute();
}

export async function revokeSession(db: Executor, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function revokeOtherSessions(db: Executor, accountId: string, keepSessionId: string | null) {
  let q = db.deleteFrom('sessions').where('account_id', '=', accountId);
  if (keepSessionId) q = q.where('id', '!=', keepSessionId);
  await q.execute();
}

export async function deleteExpiredSessions(db: Executor) {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).execute();
}
