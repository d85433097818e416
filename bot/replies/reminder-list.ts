import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { Account } from '../../server/db/database.ts';
import type { DB } from '../../server/db/connection.ts';
import { upcomingRemindersPage } from '../../server/reminders/listings.ts';
import { recurrenceLabel } from './format.ts';
import { oneLine, truncate, unix } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';

export const PAGE_SIZE = 5;
export const pageCustomId = (page: number) => `list:${page}`;

/** One page of upcoming reminders (paused ones marked), with Previous and Next when there are more. */
export async function renderReminderList(db: DB, account: Account, locale: string | null | undefined, requestedPage: number) {
  const { total, page, pages, rows } = await upcomingRemindersPage(db, account.id, requestedPage, PAGE_SIZE);
  if (total === 0) return { content: t(locale, 'list.empty'), components: [] };
  const lines = [t(locale, 'list.title', { from: page * PAGE_SIZE + 1, to: page * PAGE_SIZE + rows.length, total })];
  rows.forEach((r, i) => {
    const item = t(locale, 'list.item', { n: page * PAGE_SIZE + i + 1, unix: unix(Date.parse(r.next_fire_utc!)), recurrence: recurrenceLabel(locale, r) });
    lines.push(`${item}${r.is_paused ? ` · ${t(locale, 'list.paused')}` : ''}`, `> ${truncate(oneLine(r.message), 300)}`);
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
  return { content: lines.join('\n'), components };
}
