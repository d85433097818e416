import { ActionRowBuilder, ButtonBuilder, ButtonStyle, escapeMarkdown } from 'discord.js';
import type { FastifyInstance } from 'fastify';
import type { Destination } from '../../server/db/database.ts';
import { oneLine, truncate, unix } from '../../server/discord/message-text.ts';
import { reminderStatus } from '../../server/reminders/schedule.ts';
import { type Creator, listServerReminderPage, SERVER_PAGE_MAX, type ServerReminderView } from '../../server/servers/service.ts';
import type { ServerSettingsView } from '../../server/servers/settings.ts';
import { recurrenceLabel } from './format.ts';
import { st } from './server-text.ts';

/**
 * What `/server reminders` and `/server settings` show (bot/commands/server.ts) and what their
 * buttons (bot/components/server-reminders.ts) redraw: the server's reminders a page at a time with
 * one row of buttons each, the removal's confirmation, the server's rules in words.
 */

/** Reminders on a page: one action row each, and the row of Previous/Next (Discord allows 5 rows). */
export const SERVER_PAGE_SIZE = 4;
export const SERVER_PREFIX = 'srv';

export type ServerButton = 'page' | 'pause' | 'resume' | 'ask' | 'delete' | 'askTake' | 'take';
/** `srv:page:<page>` or `srv:<action>:<page>:<reminder id>`: the page to draw again after the action. */
export const serverCustomId = (action: ServerButton, page: number, reminderId?: string) => [SERVER_PREFIX, action, page, ...(reminderId ? [reminderId] : [])].join(':');

/** The server's part is paused by a manager (a server pause); the creator may also have paused the whole reminder. */
const pausedHere = (view: ServerReminderView) => view.reminder.destinations.some((d) => d.server_paused_at !== null);

const channelsOf = (destinations: Destination[]) =>
  [...new Set(destinations.map((d) => (JSON.parse(d.metadata) as { channel_id?: string }).channel_id).filter((id): id is string => !!id))].map((id) => `<#${id}>`).join(', ');

export function creatorName(locale: string | null | undefined, creator: Creator): string {
  // A Discord name may hold markdown (`_`, `*`); a mention of someone gone would read as "unknown user".
  const name = creator.username ? escapeMarkdown(creator.username) : creator.discord_user_id ? `<@${creator.discord_user_id}>` : st(locale, 'list.unknownCreator');
  return creator.still_member ? name : st(locale, 'list.leftServer', { creator: name });
}

function statusText(locale: string | null | undefined, view: ServerReminderView): string {
  if (pausedHere(view)) return st(locale, 'list.status.pausedHere');
  const status = reminderStatus(view.reminder);
  if (status === 'paused') return st(locale, 'list.status.pausedByCreator');
  return status === 'completed' ? st(locale, 'list.status.completed') : st(locale, 'list.status.active');
}

/**
 * Page `page` (0-based) of the server's reminders, newest first, read with the API's own paging
 * (a cursor, at most SERVER_PAGE_MAX a call): the pages before it are walked through in chunks of
 * whole pages. A page past the end (reminders removed meanwhile) shows the last one.
 */
async function loadPage(app: FastifyInstance, accountId: string, guildId: string, page: number): Promise<{ page: number; rows: ServerReminderView[]; hasNext: boolean }> {
  const chunk = SERVER_PAGE_MAX - (SERVER_PAGE_MAX % SERVER_PAGE_SIZE);
  let skip = Math.max(0, page) * SERVER_PAGE_SIZE;
  let before: string | undefined;
  let passed = 0;
  while (skip >= chunk) {
    const walked = await listServerReminderPage(app, accountId, guildId, { limit: chunk, before });
    if (!walked.next_cursor) break;
    before = walked.next_cursor;
    skip -= chunk;
    passed += chunk;
  }
  const found = await listServerReminderPage(app, accountId, guildId, { limit: Math.min(chunk, skip + SERVER_PAGE_SIZE), before });
  const rows = found.reminders.slice(skip, skip + SERVER_PAGE_SIZE);
  if (rows.length === 0 && page > 0) {
    const last = Math.max(0, Math.ceil((passed + found.reminders.length) / SERVER_PAGE_SIZE) - 1);
    return loadPage(app, accountId, guildId, Math.min(last, page - 1));
  }
  return { page: Math.max(0, page), rows, hasNext: found.reminders.length > skip + SERVER_PAGE_SIZE || found.next_cursor !== null };
}

/**
 * `/server reminders`: a page of the server's reminders with Pause/Resume, Remove and Take over for
 * each (not Take over on the manager's own reminders: it would change nothing), and Previous/Next.
 */
export async function renderServerReminders(app: FastifyInstance, accountId: string, guildId: string, locale: string | null | undefined, requestedPage: number, notice?: string) {
  const { page, rows, hasNext } = await loadPage(app, accountId, guildId, requestedPage);
  const top = notice ? [notice, ''] : [];
  if (rows.length === 0) return { content: [...top, st(locale, 'list.empty')].join('\n'), components: [] };
  const lines = [...top, st(locale, 'list.title', { page: page + 1 })];
  const components = rows.map((view, i) => {
    const n = page * SERVER_PAGE_SIZE + i + 1;
    const r = view.reminder;
    const when = r.next_fire_utc ? st(locale, 'list.next', { unix: unix(Date.parse(r.next_fire_utc)) }) : st(locale, 'list.noNext');
    lines.push(
      st(locale, 'list.item', { n, when, recurrence: recurrenceLabel(locale, r), status: statusText(locale, view) }),
      `> ${truncate(oneLine(r.message), 200)}`,
      st(locale, 'list.where', { channels: channelsOf(r.destinations), creator: creatorName(locale, view.created_by) }),
    );
    const here = pausedHere(view);
    return new ActionRowBuilder<ButtonBuilder>()
      .addComponents(
        new ButtonBuilder()
          .setCustomId(serverCustomId(here ? 'resume' : 'pause', page, r.id))
          .setLabel(st(locale, here ? 'list.resume' : 'list.pause', { n }))
          .setStyle(ButtonStyle.Secondary),
        new ButtonBuilder().setCustomId(serverCustomId('ask', page, r.id)).setLabel(st(locale, 'list.delete', { n })).setStyle(ButtonStyle.Danger),
        ...(r.account_id === accountId ? [] : [new ButtonBuilder().setCustomId(serverCustomId('askTake', page, r.id)).setLabel(st(locale, 'list.takeOver', { n })).setStyle(ButtonStyle.Secondary)]),
      )
      .toJSON();
  });
  if (page > 0 || hasNext) {
    lines.push(st(locale, 'list.page', { page: page + 1 }));
    components.push(
      new ActionRowBuilder<ButtonBuilder>()
        .addComponents(
          new ButtonBuilder().setCustomId(serverCustomId('page', page - 1)).setLabel(st(locale, 'list.previous')).setStyle(ButtonStyle.Secondary).setDisabled(page === 0),
          new ButtonBuilder().setCustomId(serverCustomId('page', page + 1)).setLabel(st(locale, 'list.nextPage')).setStyle(ButtonStyle.Secondary).setDisabled(!hasNext),
        )
        .toJSON(),
    );
  }
  return { content: truncate(lines.join('\n'), 2000), components };
}

/** Before a removal: what it does to the server and to the creator (the dashboard's confirmation), Remove or Cancel. */
export function renderRemoveConfirmation(locale: string | null | undefined, view: ServerReminderView, page: number) {
  const content = [
    st(locale, 'confirm.question', { message: truncate(oneLine(view.reminder.message), 200) }),
    st(locale, 'confirm.description', { channels: channelsOf(view.reminder.destinations), creator: creatorName(locale, view.created_by) }),
  ].join('\n');
  const row = new ActionRowBuilder<ButtonBuilder>()
    .addComponents(
      new ButtonBuilder().setCustomId(serverCustomId('delete', page, view.reminder.id)).setLabel(st(locale, 'confirm.remove')).setStyle(ButtonStyle.Danger),
      new ButtonBuilder().setCustomId(serverCustomId('page', page)).setLabel(st(locale, 'confirm.cancel')).setStyle(ButtonStyle.Secondary),
    )
    .toJSON();
  return { content, components: [row] };
}

/** Before a take-over: the reminder becomes the manager's, and what the creator keeps and is told (the dashboard's confirmation). */
export function renderTakeOverConfirmation(locale: string | null | undefined, view: ServerReminderView, page: number) {
  const content = [
    st(locale, 'takeOver.question', { message: truncate(oneLine(view.reminder.message), 200) }),
    st(locale, 'takeOver.description', { channels: channelsOf(view.reminder.destinations), creator: creatorName(locale, view.created_by) }),
  ].join('\n');
  const row = new ActionRowBuilder<ButtonBuilder>()
    .addComponents(
      new ButtonBuilder().setCustomId(serverCustomId('take', page, view.reminder.id)).setLabel(st(locale, 'takeOver.confirm')).setStyle(ButtonStyle.Primary),
      new ButtonBuilder().setCustomId(serverCustomId('page', page)).setLabel(st(locale, 'confirm.cancel')).setStyle(ButtonStyle.Secondary),
    )
    .toJSON();
  return { content, components: [row] };
}

const WHO_KEYS = { everyone: 'settings.who.everyone', role: 'settings.who.role', managers: 'settings.who.managers' } as const;
const MENTION_KEYS = { everyone: 'settings.mentions.everyone', managers: 'settings.mentions.managers', nobody: 'settings.mentions.nobody' } as const;
const FORMER_KEYS = { keep: 'settings.former.keep', pause: 'settings.former.pause' } as const;

/** The dashboard page of a server (web/src/app/router.tsx `/servers/:guildId`). */
export const serverPageUrl = (publicUrl: string, guildId: string) => `${publicUrl.replace(/\/+$/, '')}/servers/${encodeURIComponent(guildId)}`;

/** `/server settings`: the rules in words (roles and channels as Discord mentions, which never ping here), and the dashboard's page. */
export function renderServerSettings(locale: string | null | undefined, settings: ServerSettingsView, dashboardUrl: string) {
  const role = (id: string | null) => (id ? `<@&${id}>` : st(locale, 'settings.none'));
  const lines = [
    st(locale, 'settings.title'),
    settings.manager_role_id ? st(locale, 'settings.managersRole', { role: role(settings.manager_role_id) }) : st(locale, 'settings.managers'),
    st(locale, 'settings.whoCanCreate', { value: st(locale, WHO_KEYS[settings.who_can_create], { role: role(settings.creator_role_id) }) }),
    st(locale, 'settings.roleMentions', { value: st(locale, MENTION_KEYS[settings.role_mentions]) }),
    st(locale, 'settings.everyoneMention', { value: st(locale, settings.everyone_mention ? 'settings.everyoneAllowed' : 'settings.everyoneManagers') }),
    st(locale, 'settings.channels', { value: settings.allowed_channel_ids === null ? st(locale, 'settings.anyChannel') : settings.allowed_channel_ids.map((id) => `<#${id}>`).join(', ') || st(locale, 'settings.noChannel') }),
    st(locale, 'settings.maxReminders', { value: settings.max_reminders === null ? st(locale, 'settings.noLimit') : settings.max_reminders }),
    st(locale, 'settings.formerMembers', { value: st(locale, FORMER_KEYS[settings.former_members]) }),
    st(locale, 'settings.remindMeToo', { value: st(locale, settings.allow_remind_me_too ? 'settings.remindMeTooAllowed' : 'settings.remindMeTooOff') }),
    st(locale, 'settings.defaultTimezone', { value: settings.default_timezone ?? st(locale, 'settings.noTimezone') }),
    st(locale, 'settings.changeThere', { url: `<${dashboardUrl}>` }),
  ];
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setURL(dashboardUrl).setLabel(st(locale, 'settings.open')).setStyle(ButtonStyle.Link)).toJSON();
  return { content: truncate(lines.join('\n'), 2000), components: [row] };
}
