/**
 * Fixed-window counters every instance shares: plain data access; the rules are in
 * server/coordination/rate-window.ts.
 */
import { sql } from 'kysely';
import type { Executor } from './executor.ts';

/**
 * Counts one hit in the key's window, starting a new window (ending at `newResetIso`) when the
 * last one ended; answers the count and when the window ends. One upsert, so parallel hits on
 * several instances each count.
 */
export async function hitRateWindow(db: Executor, key: string, nowIso: string, newResetIso: string): Promise<{ count: number; reset_at: string }> {
  const row = await db
    .insertInto('rate_windows')
    .values({ key, count: 1, reset_at: newResetIso })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_windows.reset_at <= ${nowIso} then 1 else rate_windows.count + 1 end`,
        reset_at: sql<string>`case when rate_windows.reset_at <= ${nowIso} then ${newResetIso} else rate_windows.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), reset_at: row.reset_at };
}

export async function deleteEndedRateWindows(db: Executor, nowIso: string) {
  await db.deleteFrom('rate_windows').where('reset_at', '<=', nowIso).execute();
}
