import type { Destination, Reminder } from '../db/database.ts';
import type { Executor } from './executor.ts';

export type OwnedDestination = Pick<Destination, 'id' | 'type' | 'metadata' | 'secret' | 'disabled_at'>;

/**
 * A reminder of the account and one of its destinations, in one query. `undefined` when the
 * reminder is not the account's (or does not exist); `destination: null` when the reminder has no
 * destination with that id.
 */
export async function findDestinationOfAccount(
  db: Executor,
  accountId: string,
  reminderId: string,
  destinationId: string,
): Promise<{ reminder: Pick<Reminder, 'id' | 'message'>; destination: OwnedDestination | null } | undefined> {
  const row = await db
    .selectFrom('reminders as r')
    .leftJoin('destinations as d', (join) => join.onRef('d.reminder_id', '=', 'r.id').on('d.id', '=', destinationId))
    .select(['r.id as id', 'r.message as message', 'd.id as d_id', 'd.type as d_type', 'd.metadata as d_metadata', 'd.secret as d_secret', 'd.disabled_at as d_disabled_at'])
    .where('r.id', '=', reminderId)
    .where('r.account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  const destination =
    row.d_id === null ? null : { id: row.d_id, type: row.d_type!, metadata: row.d_metadata!, secret: row.d_secret, disabled_at: row.d_disabled_at };
  return { reminder: { id: row.id, message: row.message }, destination };
}

export async function setDestinationSecret(db: Executor, destinationId: string, secret: string): Promise<void> {
  await db.updateTable('destinations').set({ secret }).where('id', '=', destinationId).execute();
}

export async function clearDestinationDisabled(db: Executor, destinationId: string): Promise<void> {
  await db.updateTable('destinations').set({ disabled_at: null, disabled_reason: null, disabled_code: null }).where('id', '=', destinationId).execute();
}
