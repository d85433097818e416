/**
 * The servers service (docs/servers.md): the Discord servers an account is in, and what their
 * managers see and do with every reminder that posts in one of their channels. A manager only ever
 * sees and changes the server's part of a reminder (its channel destinations in that server); the
 * creator's other destinations (webhooks, email, DMs) are never read out nor touched.
 */
import type { Destination } from '../db/database.ts';
import { botGuildIds, fetchMemberBriefly, loadGuild } from '../discord/guild-reads.ts';
import { AppError } from '../errors.ts';
import { findIdentity } from '../repositories/accounts.ts';
import { deleteDestinations, findRemindersOfAccount, type NewReminder, type ReminderWithDestinations } from '../repositories/reminders.ts';
import {
  countDestinationsOfReminder,
  countServerReminders,
  discordIdentitiesOf,
  endReminder,
  findServerReminder,
  findServerSettings,
  listServerReminders,
  pauseServerRemindersOfAccounts,
  type ServerReminder,
  setServerNotice,
  setServerPaused,
} from '../repositories/servers.ts';
import { insertWithinLimit, saveDestinations, scheduleOf } from '../reminders/service.ts';
import { quoted, recordServerChange } from './audit.ts';
import { manageServer, roleIn, type ServerDeps, type ServerRole, type ServerViewer, viewServer, withDiscord } from './membership.ts';
import { settingsOrDefaults } from './settings-values.ts';

export interface ServerSummary {
  id: string;
  name: string;
  icon: string | null;
  role: ServerRole;
  reminder_count: number;
}

/** More servers than this are not asked one by one: the user's own server list (OAuth) narrows them first. */
const BOT_GUILDS_ASKED_DIRECTLY = 25;

/** Servers where the bot is and the account's Discord user is a member, by name. */
export async function listServers(deps: ServerDeps, accountId: string): Promise<ServerSummary[]> {
  const discord = deps.discord;
  if (!discord) return [];
  const identity = await findIdentity(deps.db, accountId, 'discord');
  if (!identity) return [];
  let candidates = [...(await withDiscord(deps, () => botGuildIds(discord.rest)))];
  if (candidates.length > BOT_GUILDS_ASKED_DIRECTLY && identity.access_token) {
    const mine = await discord.userTokens.call(accountId, (token) => discord.oauth.getCurrentUserGuilds(token), 'guilds');
    const ids = new Set(mine.map((g) => g.id));
    candidates = candidates.filter((id) => ids.has(id));
  }
  const found: Array<Omit<ServerSummary, 'reminder_count'>> = [];
  await withDiscord(deps, async () => {
    for (const guildId of candidates) {
      const guild = await loadGuild(discord.rest, guildId);
      const member = guild ? await fetchMemberBriefly(discord.rest, guildId, identity.external_id) : null;
      if (!guild || !member) continue;
      const settings = settingsOrDefaults(guildId, await findServerSettings(deps.db, guildId));
      found.push({ id: guild.id, name: guild.name, icon: guild.icon ?? null, role: roleIn(guild, identity.external_id, member, settings.manager_role_id) });
    }
  });
  const counts = await countServerReminders(
    deps.db,
    found.map((g) => g.id),
  );
  return found.map((g) => ({ ...g, reminder_count: counts.get(g.id) ?? 0 })).sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}

export interface Creator {
  discord_user_id: string | null;
  username: string | null;
  still_member: boolean;
}

export interface ServerReminderView {
  /** The reminder with only the server's destinations; `is_paused` says whether the server's part fires. */
  reminder: ServerReminder;
  created_by: Creator;
}

/** The server's part is paused when the whole reminder is, or when every one of its server destinations is. */
export function serverPartPaused(reminder: ServerReminder): boolean {
  return reminder.is_paused === 1 || (reminder.destinations.length > 0 && reminder.destinations.every((d) => d.server_paused_at !== null));
}

const asView = (reminder: ServerReminder, created_by: Creator): ServerReminderView => ({
  reminder: { ...reminder, is_paused: serverPartPaused(reminder) ? 1 : 0 },
  created_by,
});

/** Who made each of these reminders, and whether they are still in the server (asked of Discord, 10 s cache). */
async function creatorsOf(deps: ServerDeps, viewer: ServerViewer, accountIds: string[]): Promise<Map<string, Creator>> {
  const identities = await discordIdentitiesOf(deps.db, [...new Set(accountIds)]);
  const out = new Map<string, Creator>();
  const rest = deps.discord!.rest;
  await withDiscord(deps, async () => {
    for (const accountId of new Set(accountIds)) {
      const identity = identities.get(accountId);
      if (!identity) {
        out.set(accountId, { discord_user_id: null, username: null, still_member: false });
        continue;
      }
      const stillMember = identity.external_id === viewer.discordUserId || (await fetchMemberBriefly(rest, viewer.guild.id, identity.external_id)) !== null;
      out.set(accountId, { discord_user_id: identity.external_id, username: identity.username, still_member: stillMember });
    }
  });
  return out;
}

/**
 * A former member's reminders in the server are paused when its settings say so, seen when the
 * server is read (and at send time by the channel check). Answers the accounts whose reminders it paused.
 */
async function applyFormerMembers(deps: ServerDeps, viewer: ServerViewer, creators: Map<string, Creator>): Promise<Set<string>> {
  if (viewer.settings.former_members !== 'pause') return new Set();
  const former = [...creators].filter(([, c]) => !c.still_member).map(([accountId]) => accountId);
  if (former.length === 0) return new Set();
  // One transaction: the pause and its audit entries are seen together or not at all.
  const paused = await deps.db.transaction().execute(async (trx) => {
    if ((await pauseServerRemindersOfAccounts(trx, viewer.guild.id, former, new Date().toISOString())) === 0) return false;
    for (const accountId of former) {
      await recordServerChange(trx, {
        guildIds: [viewer.guild.id],
        actorAccountId: accountId,
        action: 'pause',
        reminderId: null,
        detail: { kind: 'formerMemberPausedAll', params: { creator: creators.get(accountId)?.username ?? creators.get(accountId)?.discord_user_id ?? '?' } },
      });
    }
    return true;
  });
  if (paused) deps.scheduler.wake();
  return new Set(former);
}

interface Cursor {
  createdAt: string;
  id: string;
}

const encodeCursor = (c: Cursor) => Buffer.from(`${c.createdAt}|${c.id}`, 'utf8').toString('base64url');

function decodeCursor(text: string): Cursor {
  const [createdAt, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !createdAt || !id || Number.isNaN(Date.parse(createdAt))) throw new AppError('CURSOR_INVALID', 'before must be a next_cursor of an earlier page');
  return { createdAt, id };
}

export const SERVER_PAGE_DEFAULT = 50;
export const SERVER_PAGE_MAX = 100;

/**
 * One page of the server's reminders, newest first (only `accountId`'s when given): the size
 * checked, the cursor read, one row more than the page read to know whether another follows.
 */
async function serverReminderRows(deps: ServerDeps, guildId: string, page: { limit?: number | undefined; before?: string | undefined }, accountId?: string) {
  const limit = page.limit ?? SERVER_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SERVER_PAGE_MAX) throw new AppError('VALIDATION_FAILED', `limit must be between 1 and ${SERVER_PAGE_MAX}`);
  const before = page.before ? decodeCursor(page.before) : undefined;
  const rows = await listServerReminders(deps.db, guildId, { limit: limit + 1, before, accountId });
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  return { rows: pageRows, next_cursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null };
}

/** One page of every reminder, of anyone, with a channel destination in the server (managers). */
export async function listServerReminderPage(
  deps: ServerDeps,
  accountId: string,
  guildId: string,
  page: { limit?: number | undefined; before?: string | undefined },
): Promise<{ viewer: ServerViewer; reminders: ServerReminderView[]; next_cursor: string | null }> {
  const viewer = await manageServer(deps, accountId, guildId);
  const { rows: pageRows, next_cursor } = await serverReminderRows(deps, guildId, page);
  const creators = await creatorsOf(
    deps,
    viewer,
    pageRows.map((r) => r.account_id),
  );
  const paused = await applyFormerMembers(deps, viewer, creators);
  const now = new Date().toISOString();
  const reminders = pageRows.map((r) => {
    const destinations = paused.has(r.account_id) ? r.destinations.map((d) => ({ ...d, server_paused_at: d.server_paused_at ?? now })) : r.destinations;
    return asView({ ...r, destinations }, creators.get(r.account_id)!);
  });
  return { viewer, reminders, next_cursor };
}

/**
 * One page of the signed-in account's own reminders with a channel destination in the server
 * (members and managers alike), newest first. They are the account's: each comes whole, every
 * destination included, as `GET /api/reminders/:id` answers it, and is acted on with the
 * reminders routes.
 */
export async function listMyServerReminderPage(
  deps: ServerDeps,
  accountId: string,
  guildId: string,
  page: { limit?: number | undefined; before?: string | undefined },
): Promise<{ reminders: ReminderWithDestinations[]; next_cursor: string | null }> {
  await viewServer(deps, accountId, guildId);
  const { rows, next_cursor } = await serverReminderRows(deps, guildId, page, accountId);
  const reminders = await findRemindersOfAccount(deps.db, accountId, rows.map((row) => row.id));
  return { reminders, next_cursor };
}

async function serverReminder(deps: ServerDeps, viewer: ServerViewer, reminderId: string): Promise<ServerReminder> {
  const reminder = await findServerReminder(deps.db, viewer.guild.id, reminderId);
  // A reminder without a channel in this server is not the server's: not found, whoever owns it.
  if (!reminder) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
  return reminder;
}

async function viewOf(deps: ServerDeps, viewer: ServerViewer, reminderId: string): Promise<ServerReminderView> {
  const reminder = await serverReminder(deps, viewer, reminderId);
  const creators = await creatorsOf(deps, viewer, [reminder.account_id]);
  return asView(reminder, creators.get(reminder.account_id)!);
}

/** One of the server's reminders as managers see it (what a confirmation quotes before an action). */
export async function getServerReminder(deps: ServerDeps, accountId: string, guildId: string, reminderId: string): Promise<ServerReminderView> {
  const viewer = await manageServer(deps, accountId, guildId);
  return viewOf(deps, viewer, reminderId);
}

/** Stops the server's part of a reminder; the creator's other destinations keep firing. */
export async function pauseServerReminder(deps: ServerDeps, accountId: string, guildId: string, reminderId: string): Promise<ServerReminderView> {
  const viewer = await manageServer(deps, accountId, guildId);
  const reminder = await serverReminder(deps, viewer, reminderId);
  if (reminder.destinations.some((d) => d.server_paused_at === null)) {
    // One transaction: the change and its audit entry are seen together or not at all.
    await deps.db.transaction().execute(async (trx) => {
      await setServerPaused(trx, guildId, reminderId, new Date().toISOString());
      await recordServerChange(trx, { guildIds: [guildId], actorAccountId: accountId, action: 'pause', reminderId, detail: { kind: 'pausedHere', params: { message: quoted(reminder.message) } } });
    });
  }
  deps.scheduler.wake();
  return viewOf(deps, viewer, reminderId);
}

/** Lets the server's part fire again (a reminder its creator paused stays paused: that is theirs). */
export async function resumeServerReminder(deps: ServerDeps, accountId: string, guildId: string, reminderId: string): Promise<ServerReminderView> {
  const viewer = await manageServer(deps, accountId, guildId);
  const reminder = await serverReminder(deps, viewer, reminderId);
  if (reminder.destinations.some((d) => d.server_paused_at !== null)) {
    await deps.db.transaction().execute(async (trx) => {
      await setServerPaused(trx, guildId, reminderId, null);
      await recordServerChange(trx, { guildIds: [guildId], actorAccountId: accountId, action: 'resume', reminderId, detail: { kind: 'resumedHere', params: { message: quoted(reminder.message) } } });
    });
  }
  deps.scheduler.wake();
  return viewOf(deps, viewer, reminderId);
}

const channelNames = (destinations: Destination[]) =>
  destinations
    .map((d) => (JSON.parse(d.metadata) as { channel_name?: string; channel_id?: string }).channel_name ?? (JSON.parse(d.metadata) as { channel_id?: string }).channel_id)
    .map((n) => `#${n}`)
    .join(', ');

/**
 * Removes the server's channel destinations from a reminder. One left without any destination
 * ends (it no longer fires); the creator reads why in its `server_notice`.
 */
export async function removeServerReminder(deps: ServerDeps, accountId: string, guildId: string, reminderId: string): Promise<{ ended: boolean }> {
  const viewer = await manageServer(deps, accountId, guildId);
  const reminder = await serverReminder(deps, viewer, reminderId);
  const notice = `A manager of ${viewer.guild.name} removed this reminder from ${channelNames(reminder.destinations)}.`;
  const ended = await deps.db.transaction().execute(async (trx) => {
    await deleteDestinations(
      trx,
      reminder.destinations.map((d) => d.id),
    );
    const endedNow = (await countDestinationsOfReminder(trx, reminderId)) === 0;
    if (endedNow) await endReminder(trx, reminderId, notice);
    else await setServerNotice(trx, reminderId, notice);
    await recordServerChange(trx, {
      guildIds: [guildId],
      actorAccountId: accountId,
      action: 'delete',
      reminderId,
      detail: { kind: endedNow ? 'removedEnded' : 'removed', params: { message: quoted(reminder.message), channels: channelNames(reminder.destinations) } },
    });
    return endedNow;
  });
  deps.scheduler.wake();
  return { ended };
}

/**
 * The manager becomes the owner of the server's part: it is split off as the manager's own
 * reminder (same message and schedule, the server's destinations), and the creator's reminder
 * keeps only its other destinations (or ends, with a notice, when it had none). Taking over one's
 * own reminder changes nothing.
 */
export async function takeOverServerReminder(deps: ServerDeps, accountId: string, guildId: string, reminderId: string): Promise<ServerReminderView> {
  const viewer = await manageServer(deps, accountId, guildId);
  const source = await serverReminder(deps, viewer, reminderId);
  if (source.account_id === accountId) return viewOf(deps, viewer, reminderId);
  const notice = `A manager of ${viewer.guild.name} (${viewer.username ?? viewer.discordUserId}) took over this reminder's messages in ${channelNames(source.destinations)}.`;
  // Read before the transaction: it holds the write lock only for the writes.
  const creator = (await discordIdentitiesOf(deps.db, [source.account_id])).get(source.account_id);
  const newId = await deps.db.transaction().execute(async (trx) => {
    const row: NewReminder = {
      account_id: accountId,
      ...scheduleOf(source),
      is_paused: source.is_paused,
      snoozed_at_utc: source.snoozed_at_utc,
      next_fire_utc: source.next_fire_utc,
      next_occurrence_utc: source.next_occurrence_utc,
      // Where the creator's reminder stands: alerts it already sent are not sent again.
      next_alert_utc: source.next_alert_utc,
      completed_at: source.completed_at,
    };
    const created = await insertWithinLimit(trx, row);
    await saveDestinations(
      trx,
      created.id,
      source.destinations.map((d) => ({ type: d.type, metadata: JSON.parse(d.metadata) as Record<string, unknown> })),
    );
    const paused = source.destinations.some((d) => d.server_paused_at !== null);
    if (paused) await setServerPaused(trx, guildId, created.id, new Date().toISOString());
    await deleteDestinations(
      trx,
      source.destinations.map((d) => d.id),
    );
    if ((await countDestinationsOfReminder(trx, source.id)) === 0) await endReminder(trx, source.id, notice);
    else await setServerNotice(trx, source.id, notice);
    await recordServerChange(trx, {
      guildIds: [guildId],
      actorAccountId: accountId,
      action: 'take_over',
      reminderId: created.id,
      detail: { kind: 'tookOver', params: { message: quoted(source.message), creator: creator?.username ?? creator?.external_id ?? '?', source: source.id } },
    });
    return created.id;
  });
  deps.scheduler.wake();
  return viewOf(deps, viewer, newId);
}
