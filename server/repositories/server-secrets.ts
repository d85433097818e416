/** Secrets the server made for itself (migration 2026-11-27-020). Plain data access. */
import type { Executor } from './executor.ts';

/**
 * The stored secret of `name`; when there is none yet, `candidate` becomes it. The insert keeps
 * the first writer's value, so instances and threads starting together all read the same one.
 */
export async function ensureServerSecret(db: Executor, name: string, candidate: string, nowIso: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: candidate, created_at: nowIso })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
