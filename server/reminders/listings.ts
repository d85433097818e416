/**
 * Short listings of an account's reminders, for the bot: `/reminders` one page at a time, and the
 * reminders a `/reminder` subcommand can act on (its autocomplete). The bot only renders them.
 */
import type { DB } from '../db/connection.ts';
import { findAccountForDiscordUser } from '../accounts/discord-accounts.ts';
import {
  countUpcomingReminders,
  listReminderChoices,
  listUpcomingReminders,
  type ReminderChoice,
  type UpcomingReminder,
} from '../repositories/reminders.ts';

export interface UpcomingPage {
  /** Reminders with a next firing (paused ones included). */
  total: number;
  /** The page shown (0-based): the one asked for, kept within the pages there are. */
  page: number;
  pages: number;
  rows: UpcomingReminder[];
}

/** Upcoming = anything with a next firing (paused ones included), soonest first. */
export async function upcomingRemindersPage(db: DB, accountId: string, requestedPage: number, pageSize: number): Promise<UpcomingPage> {
  const total = await countUpcomingReminders(db, accountId);
  if (total === 0) return { total, page: 0, pages: 0, rows: [] };
  const pages = Math.ceil(total / pageSize);
  const page = Math.min(Math.max(Number.isInteger(requestedPage) ? requestedPage : 0, 0), pages - 1);
  return { total, page, pages, rows: await listUpcomingReminders(db, accountId, pageSize, page * pageSize) };
}

export type ReminderAct = 'edit' | 'skip' | 'pause' | 'resume' | 'delete' | 'snooze';

/** Which of the caller's reminders each action can apply to. */
function applies(act: ReminderAct, r: Pick<ReminderChoice, 'is_paused' | 'next_fire_utc'>): boolean {
  if (act === 'pause') return !r.is_paused && r.next_fire_utc !== null;
  if (act === 'resume') return r.is_paused === 1;
  if (act === 'skip') return r.next_fire_utc !== null;
  return true;
}

/** Reminders read for a choice list: an account with more is searched among its next 1,000. */
const CHOICE_SCAN = 1000;

/**
 * The Discord user's reminders that `act` can apply to and whose message contains `query` (or
 * whose id starts with it), upcoming first and finished ones last; at most `limit`. Null when the
 * user has no account yet. The account's zone comes along, to show the times in.
 */
export async function reminderChoices(
  db: DB,
  discordUserId: string,
  act: ReminderAct,
  query: string,
  limit: number,
): Promise<{ timezone: string; choices: ReminderChoice[] } | null> {
  const account = await findAccountForDiscordUser(db, discordUserId);
  if (!account) return null;
  const needle = query.toLowerCase();
  const choices = (await listReminderChoices(db, account.id, CHOICE_SCAN))
    .filter((r) => applies(act, r))
    .filter((r) => !needle || r.message.toLowerCase().includes(needle) || r.id.startsWith(needle))
    .sort((a, b) => (a.next_fire_utc === null ? 1 : 0) - (b.next_fire_utc === null ? 1 : 0))
    .slice(0, limit);
  return { timezone: account.timezone, choices };
}
