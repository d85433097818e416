import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { Account } from '../../server/db/database.ts';
import type { DB } from '../../server/db/connection.ts';
import { upcomingRemindersPage } from '../../server/reminders/listings.ts';
import { followedReminders } from '../../server/reminders/subscriptions.ts';
import { remindTooCustomId } from '../../server/destinations/discord-common/delivery-message.ts';
import { parseStoredAlerts } from '../../server/scheduler/alerts.ts';
import { alertLeads, recurrenceLabel } from './format.ts';
import { oneLine, truncate, unix } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';

export const PAGE_SIZE = 5;
/** Reminders someone follows ("Remind me too") shown under their own, each with its Stop button (one row of five). */
export const FOLLOWED_SHOWN = 5;
export const pageCustomId = (page: number) => `list:${page}`;

/**
 * One page of upcoming reminders (their alerts before and a pause marked), with Previous and Next when there are more,
 * then the reminders the account follows ("Remind me too"), each with a Stop button.
 */
export async function renderReminderList(db: DB, account: Account, locale: string | null | undefined, requestedPage: number) {
  const { total, page, pages, rows } = await upcomingRemindersPage(db, account.id, requestedPage, PAGE_SIZE);
  const followed = await followedReminders({ db }, account.id, FOLLOWED_SHOWN);
  if (total === 0 && followed.length === 0) return { content: t(locale, 'list.empty'), components: [] };
  const lines = total === 0 ? [t(locale, 'list.empty')] : [t(locale, 'list.title', { from: page * PAGE_SIZE + 1, to: page * PAGE_SIZE + rows.length, total })];
  rows.forEach((r, i) => {
    const item = t(locale, 'list.item', { n: page * PAGE_SIZE + i + 1, unix: unix(Date.parse(r.next_fire_utc!)), recurrence: recurrenceLabel(locale, r) });
    const alerts = parseStoredAlerts(r.alerts);
    const marks = [...(alerts.length > 0 ? [t(locale, 'list.alerts', { leads: alertLeads(locale, alerts) })] : []), ...(r.is_paused ? [t(locale, 'list.paused')] : [])];
    lines.push([item, ...marks].join(' · '), `> ${truncate(oneLine(r.message), 300)}`);
  });
  if (pages > 1) lines.push(t(locale, 'list.page', { page: page + 1, pages }));
  const components =
    pages > 1
      ? [
          new ActionRowBuilder<ButtonBuilder>()
            .addComponents(
              new ButtonBuilder().setCustomId(pageCustomId(page - 1)).setLabel(t(locale, 'list.previous')).setStyle(ButtonStyle.Secondary).setDisabled(page === 0),
              new ButtonBuilder().setCustomId(pageCustomId(page + 1)).setLabel(t(locale, 'list.next')).setStyle(ButtonStyle.Secondary).setDisabled(page >= pages - 1),
            )
            .toJSON(),
        ]
      : [];
  if (followed.length > 0) {
    lines.push('', t(locale, 'list.followedTitle'));
    followed.forEach((r, i) => {
      const when = r.next_fire_utc ? t(locale, 'list.followedNext', { unix: unix(Date.parse(r.next_fire_utc)) }) : t(locale, 'list.followedFinished');
      lines.push(`**${i + 1}.** ${when}${r.is_paused ? ` · ${t(locale, 'list.paused')}` : ''}`, `> ${truncate(oneLine(r.message), 200)}`);
    });
    components.push(
      new ActionRowBuilder<ButtonBuilder>()
        .addComponents(
          followed.map((r, i) =>
            new ButtonBuilder()
              .setCustomId(remindTooCustomId('unfollow', r.id))
              .setLabel(t(locale, 'list.stopFollowing', { n: i + 1 }))
              .setStyle(ButtonStyle.Secondary),
          ),
        )
        .toJSON(),
    );
  }
  return { content: lines.join('\n'), components };
}
