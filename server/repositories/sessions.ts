import type { Session } from '../db/database.ts';
import { newId, nowIso } from '../lib/ids.ts';
import type { Executor } from './executor.ts';
import { prepared } from './prepared.ts';

export const SHORT_SESSION_MS = 24 * 60 * 60 * 1000;
export const LONG_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

/** Stores a session by the hash of its token (the token itself is never stored). */
export async function insertSession(
  db: Executor,
  input: { account_id: string; token_hash: string; created_at: string; expires_at: string; user_agent: string | null; network: string | null },
): Promise<Session> {
  const session: Session = { id: newId(), last_used_at: null, ...input };
  await db.insertInto('sessions').values(session).execute();
  return session;
}

// Every authenticated request runs this.
const liveSessionByHash = prepared(['tokenHash', 'now'], (db, p: { tokenHash: string; now: string }) =>
  db.selectFrom('sessions').select(['id', 'account_id', 'expires_at', 'last_used_at', 'network']).where('token_hash', '=', p.tokenHash).where('expires_at', '>', p.now),
);

/** A live session as a request's authentication reads it (liveSessionByHash's columns). */
export type LiveSession = Awaited<ReturnType<typeof liveSessionByHash>>['rows'][number];

/** The session whose token hashes to `tokenHash`, if it has not expired at `now`. */
export async function findLiveSessionByHash(db: Executor, tokenHash: string, now: string): Promise<LiveSession | undefined> {
  return (await liveSessionByHash(db, { tokenHash, now })).rows[0];
}

export async function touchSession(db: Executor, id: string, network: string | null, at: string = nowIso()) {
  await db.updateTable('sessions').set({ last_used_at: at, network }).where('id', '=', id).execute();
}

/** The live sessions of the account, newest first. */
export async function listLiveSessions(db: Executor, accountId: string): Promise<Session[]> {
  return db.selectFrom('sessions').selectAll().where('account_id', '=', accountId).where('expires_at', '>', nowIso()).orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Ends one session of the account; false when it has none with this id. */
export async function revokeSessionOfAccount(db: Executor, accountId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function revokeSession(db: Executor, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of the account but `keepSessionId`; answers how many were live. */
export async function revokeOtherSessions(db: Executor, accountId: string, keepSessionId: string | null): Promise<number> {
  let q = db.deleteFrom('sessions').where('account_id', '=', accountId);
  if (keepSessionId) q = q.where('id', '!=', keepSessionId);
  const result = await q.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Executor) {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).execute();
}
