import type { Destination, DestinationType, RecurrenceType, Reminder } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { newId, newWebhookSecret, nowIso } from '../lib/ids.ts';
import type { Executor } from './executor.ts';

export interface DestinationInput {
  /** Present when the client sends back a destination it already has: keeps its id and secret. */
  id?: string;
  type: DestinationType;
  metadata: Record<string, unknown>;
}

export interface ReminderWithDestinations extends Reminder {
  destinations: Destination[];
}

export async function listRemindersOfAccount(db: Executor, accountId: string): Promise<ReminderWithDestinations[]> {
  // One joined query instead of reminders + destinations: this is the dashboard's hottest read.
  const rows = await db
    .selectFrom('reminders as r')
    .leftJoin('destinations as d', 'd.reminder_id', 'r.id')
    .selectAll('r')
    .select([
      'd.id as d_id',
      'd.type as d_type',
      'd.metadata as d_metadata',
      'd.secret as d_secret',
      'd.position as d_position',
      'd.disabled_at as d_disabled_at',
      'd.disabled_reason as d_disabled_reason',
      'd.created_at as d_created_at',
    ])
    .where('r.account_id', '=', accountId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .orderBy('d.position')
    .limit(100_000)
    .execute();
  const out: ReminderWithDestinations[] = [];
  for (const row of rows) {
    const { d_id, d_type, d_metadata, d_secret, d_position, d_disabled_at, d_disabled_reason, d_created_at, ...reminder } = row;
    let current = out[out.length - 1];
    if (!current || current.id !== reminder.id) {
      current = { ...reminder, destinations: [] };
      out.push(current);
    }
    if (d_id !== null) {
      current.destinations.push({
        id: d_id,
        reminder_id: reminder.id,
        type: d_type!,
        metadata: d_metadata!,
        secret: d_secret,
        position: d_position!,
        disabled_at: d_disabled_at,
        disabled_reason: d_disabled_reason,
        created_at: d_created_at!,
      });
    }
  }
  return out;
}

export async function findReminderOfAccount(db: Executor, accountId: string, id: string): Promise<ReminderWithDestinations | undefined> {
  const reminder = await db.selectFrom('reminders').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!reminder) return undefined;
  return (await attachDestinations(db, [reminder]))[0];
}

async function attachDestinations(db: Executor, reminders: Reminder[]): Promise<ReminderWithDestinations[]> {
  if (reminders.length === 0) return [];
  const byReminder = new Map<string, Destination[]>(reminders.map((r) => [r.id, []]));
  // SQLite caps bound parameters; chunking keeps huge accounts working.
  const ids = reminders.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('destinations')
      .selectAll()
      .where('reminder_id', 'in', ids.slice(i, i + 500))
      .orderBy('reminder_id')
      .orderBy('position')
      .execute();
    for (const row of rows) byReminder.get(row.reminder_id)?.push(row);
  }
  return reminders.map((r) => ({ ...r, destinations: byReminder.get(r.id) ?? [] }));
}

/** Keeps one account's list (and the memory to serve it) bounded. */
export const MAX_REMINDERS_PER_ACCOUNT = 10_000;

export async function insertReminder(
  db: Executor,
  input: Omit<Reminder, 'id' | 'created_at' | 'updated_at' | 'last_fired_at' | 'completed_at'> & Partial<Pick<Reminder, 'completed_at'>>,
): Promise<Reminder> {
  const { count } = await db
    .selectFrom('reminders')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', input.account_id)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_REMINDERS_PER_ACCOUNT) {
    throw new AppError('REMINDER_LIMIT', `An account can hold at most ${MAX_REMINDERS_PER_ACCOUNT.toLocaleString('en-US')} reminders. Delete some first.`);
  }
  const now = nowIso();
  const row: Reminder = { id: newId(), created_at: now, updated_at: now, last_fired_at: null, completed_at: null, ...input };
  await db.insertInto('reminders').values(row).execute();
  return row;
}

export async function updateReminder(db: Executor, id: string, patch: Partial<Omit<Reminder, 'id' | 'account_id' | 'created_at'>>) {
  await db.updateTable('reminders').set({ ...patch, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function deleteReminder(db: Executor, id: string) {
  // Through the delivery: delivery_attempts is indexed by delivery_id, not by reminder_id.
  await db
    .deleteFrom('delivery_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('deliveries.id').where('deliveries.reminder_id', '=', id))
    .execute();
  await db.deleteFrom('deliveries').where('reminder_id', '=', id).execute();
  await db.deleteFrom('destinations').where('reminder_id', '=', id).execute();
  await db.deleteFrom('reminders').where('id', '=', id).execute();
}

/**
 * Replaces the destination list. A destination sent back with its id keeps its row (and so its
 * webhook secret and delivery history) when its type is unchanged; the rest are created anew.
 * Returns the secrets of newly created webhook destinations, keyed by destination id.
 */
export async function replaceDestinations(
  db: Executor,
  reminderId: string,
  inputs: DestinationInput[],
  existing: Destination[] = [],
): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  const keep = new Set<string>();
  const now = nowIso();
  for (const [position, input] of inputs.entries()) {
    const match = existing.find((d) => d.id === input.id && d.type === input.type && !keep.has(d.id));
    const metadata = JSON.stringify(input.metadata);
    if (match) {
      keep.add(match.id);
      const sameTarget = match.metadata === metadata;
      await db
        .updateTable('destinations')
        .set({
          metadata,
          position,
          // A changed target deserves a fresh chance: clear a "disabled" from the old target.
          ...(sameTarget ? {} : { disabled_at: null, disabled_reason: null }),
        })
        .where('id', '=', match.id)
        .execute();
      continue;
    }
    const id = newId();
    const secret = input.type === 'webhook' ? newWebhookSecret() : null;
    if (secret) secrets.set(id, secret);
    await db
      .insertInto('destinations')
      .values({ id, reminder_id: reminderId, type: input.type, metadata, secret, position, disabled_at: null, disabled_reason: null, created_at: now })
      .execute();
  }
  const drop = existing.filter((d) => !keep.has(d.id)).map((d) => d.id);
  if (drop.length) {
    await db
      .deleteFrom('delivery_attempts')
      .where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('deliveries.id').where('deliveries.destination_id', 'in', drop))
      .execute();
    await db.deleteFrom('deliveries').where('destination_id', 'in', drop).execute();
    await db.deleteFrom('destinations').where('id', 'in', drop).execute();
  }
  return secrets;
}

export async function listDeliveryErrors(db: Executor, accountId: string, limit = 100) {
  return db
    .selectFrom('delivery_attempts as a')
    .innerJoin('reminders as r', 'r.id', 'a.reminder_id')
    .innerJoin('destinations as d', 'd.id', 'a.destination_id')
    .select([
      'a.id',
      'a.reminder_id',
      'r.message as reminder_message',
      'a.destination_id',
      'd.type as destination_type',
      'd.metadata as destination_metadata',
      'a.occurrence_utc',
      'a.attempt',
      'a.outcome',
      'a.error',
      'a.http_status',
      'a.discord_code',
      'a.created_at',
    ])
    .where('a.account_id', '=', accountId)
    .where('a.outcome', '!=', 'delivered')
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
}

export type { RecurrenceType };
