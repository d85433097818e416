/**
 * Data access of the servers feature (docs/servers.md): a Discord server's reminders (those with a
 * `discord_channel` destination in it, found by destinations.guild_id), their creators' Discord
 * identities, the pause of a server's part, and the server's settings.
 */
import type { Identity, Reminder, ServerAuditEntry, ServerSettings } from '../db/database.ts';
import { nowIso } from '../lib/ids.ts';
import type { Executor } from './executor.ts';
import { isOwnerDestination, type OwnerDestination } from './reminders.ts';

export interface ServerReminder extends Reminder {
  /** Only this server's channel destinations. */
  destinations: OwnerDestination[];
}

/** How many reminders have a channel destination in each of these servers. */
export async function countServerReminders(db: Executor, guildIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (guildIds.length === 0) return counts;
  const rows = await db
    .selectFrom('destinations')
    .select(['guild_id', (eb) => eb.fn.count<number>('reminder_id').distinct().as('count')])
    .where('guild_id', 'in', guildIds)
    .groupBy('guild_id')
    .execute();
  for (const row of rows) counts.set(row.guild_id!, Number(row.count));
  return counts;
}

/** The server's destinations of these reminders, in each reminder's order. */
async function serverDestinationsOf(db: Executor, guildId: string, reminderIds: string[]): Promise<Map<string, OwnerDestination[]>> {
  const byReminder = new Map<string, OwnerDestination[]>();
  if (reminderIds.length === 0) return byReminder;
  const rows = await db.selectFrom('destinations').selectAll().where('guild_id', '=', guildId).where('reminder_id', 'in', reminderIds).orderBy('position').execute();
  // A subscriber's destination has no server (guild_id is null): none is among these rows.
  for (const row of rows.filter(isOwnerDestination)) {
    const list = byReminder.get(row.reminder_id) ?? [];
    list.push(row);
    byReminder.set(row.reminder_id, list);
  }
  return byReminder;
}

export interface ServerReminderFilter {
  limit: number;
  /** The page after this reminder (created_at, then id, both descending). */
  before?: { createdAt: string; id: string } | undefined;
  /** Only reminders of these accounts (the creator filter, or a member's own view). */
  accountId?: string | undefined;
}

/** One page of the server's reminders, newest first, each with only the server's destinations. */
export async function listServerReminders(db: Executor, guildId: string, filter: ServerReminderFilter): Promise<ServerReminder[]> {
  let query = db
    .selectFrom('reminders as r')
    .selectAll('r')
    .where((eb) => eb.exists(eb.selectFrom('destinations as d').select('d.id').whereRef('d.reminder_id', '=', 'r.id').where('d.guild_id', '=', guildId)));
  if (filter.accountId) query = query.where('r.account_id', '=', filter.accountId);
  const before = filter.before;
  if (before) query = query.where((eb) => eb.or([eb('r.created_at', '<', before.createdAt), eb.and([eb('r.created_at', '=', before.createdAt), eb('r.id', '<', before.id)])]));
  const reminders = await query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(filter.limit).execute();
  const destinations = await serverDestinationsOf(
    db,
    guildId,
    reminders.map((r) => r.id),
  );
  return reminders.map((r) => ({ ...r, destinations: destinations.get(r.id) ?? [] }));
}

/** One reminder of the server (any account's) with only the server's destinations, or undefined when it has none there. */
export async function findServerReminder(db: Executor, guildId: string, reminderId: string): Promise<ServerReminder | undefined> {
  const reminder = await db.selectFrom('reminders').selectAll().where('id', '=', reminderId).executeTakeFirst();
  if (!reminder) return undefined;
  const destinations = (await serverDestinationsOf(db, guildId, [reminderId])).get(reminderId) ?? [];
  return destinations.length > 0 ? { ...reminder, destinations } : undefined;
}

/** How many destinations a reminder has, of any type, anywhere. */
export async function countDestinationsOfReminder(db: Executor, reminderId: string): Promise<number> {
  const { count } = await db
    .selectFrom('destinations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('reminder_id', '=', reminderId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Pauses (an instant) or resumes (null) the server's destinations of a reminder. */
export async function setServerPaused(db: Executor, guildId: string, reminderId: string, at: string | null): Promise<void> {
  await db.updateTable('destinations').set({ server_paused_at: at }).where('guild_id', '=', guildId).where('reminder_id', '=', reminderId).execute();
}

/** Pauses the server's destinations of every reminder of these accounts that are not paused yet. */
export async function pauseServerRemindersOfAccounts(db: Executor, guildId: string, accountIds: string[], at: string): Promise<number> {
  if (accountIds.length === 0) return 0;
  const result = await db
    .updateTable('destinations')
    .set({ server_paused_at: at })
    .where('guild_id', '=', guildId)
    .where('server_paused_at', 'is', null)
    .where('reminder_id', 'in', (eb) => eb.selectFrom('reminders').select('id').where('account_id', 'in', accountIds))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The Discord identities of these accounts, by account id. */
export async function discordIdentitiesOf(db: Executor, accountIds: string[]): Promise<Map<string, Pick<Identity, 'account_id' | 'external_id' | 'username'>>> {
  const out = new Map<string, Pick<Identity, 'account_id' | 'external_id' | 'username'>>();
  if (accountIds.length === 0) return out;
  const rows = await db.selectFrom('identities').select(['account_id', 'external_id', 'username']).where('provider', '=', 'discord').where('account_id', 'in', accountIds).execute();
  for (const row of rows) out.set(row.account_id, row);
  return out;
}

/** Ends a reminder left without destinations, saying why to its creator. */
export async function endReminder(db: Executor, reminderId: string, notice: string): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('reminders')
    .set({ next_fire_utc: null, next_occurrence_utc: null, next_alert_utc: null, snoozed_at_utc: null, completed_at: now, server_notice: notice, updated_at: now })
    .where('id', '=', reminderId)
    .execute();
}

export async function setServerNotice(db: Executor, reminderId: string, notice: string): Promise<void> {
  await db.updateTable('reminders').set({ server_notice: notice, updated_at: nowIso() }).where('id', '=', reminderId).execute();
}

// ---------------------------------------------------------------------------------------------
// Settings

export async function findServerSettings(db: Executor, guildId: string): Promise<ServerSettings | undefined> {
  return db.selectFrom('server_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
}

export async function saveServerSettings(db: Executor, row: ServerSettings): Promise<void> {
  const { guild_id: _key, ...rest } = row;
  await db
    .insertInto('server_settings')
    .values(row)
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(rest))
    .execute();
}

/** How many reminders this account has with a channel destination in the server. */
export async function countServerRemindersOfAccount(db: Executor, guildId: string, accountId: string, exceptReminderId?: string): Promise<number> {
  let query = db
    .selectFrom('reminders as r')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('r.account_id', '=', accountId)
    .where((eb) => eb.exists(eb.selectFrom('destinations as d').select('d.id').whereRef('d.reminder_id', '=', 'r.id').where('d.guild_id', '=', guildId)));
  if (exceptReminderId) query = query.where('r.id', '!=', exceptReminderId);
  const { count } = await query.executeTakeFirstOrThrow();
  return Number(count);
}

// ---------------------------------------------------------------------------------------------
// Audit log

export async function insertServerAudit(db: Executor, rows: ServerAuditEntry[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('server_audit').values(rows).execute();
}

/** One page of the server's audit log from `since` on, newest first. */
export async function listServerAudit(
  db: Executor,
  guildId: string,
  page: { limit: number; since: string; before?: { at: string; id: string } | undefined },
): Promise<ServerAuditEntry[]> {
  let query = db.selectFrom('server_audit').selectAll().where('guild_id', '=', guildId).where('at', '>=', page.since);
  const before = page.before;
  if (before) query = query.where((eb) => eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]));
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}

/** Forgets entries older than `cutoff` (all servers). */
export async function deleteServerAuditBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('server_audit').where('at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
