/**
 * "Remind me too" (docs/discord.md): a channel reminder's creator may offer a button under each
 * delivery; whoever presses it is sent the reminder's coming occurrences by DM until they press
 * "Stop reminding me" or the reminder is deleted, paused or finished. A subscription is a row and a
 * `discord_subscriber` destination of the reminder, so the scheduler delivers it like any other
 * destination (outbox, retries, exactly once per occurrence). The bot's buttons only translate.
 */
import { type DiscordUserLike, ensureAccountForDiscordUser, findAccountForDiscordUser } from '../accounts/discord-accounts.ts';
import type { DB } from '../db/connection.ts';
import { findReminderOfAccount, findReminderById } from '../repositories/reminders.ts';
import { findServerSettings } from '../repositories/servers.ts';
import { countSubscriptions, deleteSubscription, findSubscription, type FollowedReminder, insertSubscription, listFollowedReminders, lockReminderRow } from '../repositories/subscriptions.ts';
import { isUniqueViolation } from '../repositories/accounts.ts';
import { parseJsonObject } from '../lib/json-object.ts';

/** At most this many people follow one reminder: each occurrence sends one DM per subscriber. */
export const MAX_SUBSCRIBERS = 100;

export type SubscribeResult =
  /** The reminder was deleted or has no occurrence left. */
  | { kind: 'gone' }
  /** Its creator no longer offers the button, or the server's managers turned it off. */
  | { kind: 'not-offered' }
  /** The creator: the reminder is theirs already. */
  | { kind: 'owner' }
  | { kind: 'already' }
  | { kind: 'full'; max: number }
  | { kind: 'subscribed'; nextFireUtc: string | null };

export interface SubscribePress {
  user: DiscordUserLike;
  /** The Discord client's language, for an account made by this press. */
  locale: string | null;
  /** The server the button was pressed in (its default zone for a new account). */
  guildId: string | null;
  reminderId: string;
}

/** Whether a channel destination of the reminder offers the button and its server allows it. */
async function offered(db: DB, destinations: ReadonlyArray<{ type: string; metadata: string; disabled_at: string | null }>): Promise<boolean> {
  for (const d of destinations) {
    if (d.type !== 'discord_channel' || d.disabled_at !== null) continue;
    const meta = parseJsonObject(d.metadata);
    if (meta.remind_me_too !== true || typeof meta.guild_id !== 'string' || !meta.guild_id) continue;
    if (((await findServerSettings(db, meta.guild_id))?.allow_remind_me_too ?? 1) === 1) return true;
  }
  return false;
}

export async function subscribe(deps: { db: DB }, press: SubscribePress): Promise<SubscribeResult> {
  const { db } = deps;
  const found = await findReminderById(db, press.reminderId);
  if (!found || found.next_fire_utc === null) return { kind: 'gone' };
  const reminder = await findReminderOfAccount(db, found.account_id, found.id);
  if (!reminder) return { kind: 'gone' };
  if (!(await offered(db, reminder.destinations))) return { kind: 'not-offered' };
  const account = await ensureAccountForDiscordUser(db, press.user, press.locale, press.guildId);
  if (account.id === reminder.account_id) return { kind: 'owner' };
  try {
    return await db.transaction().execute(async (trx) => {
      await lockReminderRow(trx, reminder.id);
      if (await findSubscription(trx, reminder.id, account.id)) return { kind: 'already' } as const;
      if ((await countSubscriptions(trx, reminder.id)) >= MAX_SUBSCRIBERS) return { kind: 'full', max: MAX_SUBSCRIBERS } as const;
      await insertSubscription(trx, reminder.id, account.id);
      return { kind: 'subscribed', nextFireUtc: reminder.next_fire_utc } as const;
    });
  } catch (err) {
    // Two presses at once: the unique (reminder, account) index let one in.
    if (isUniqueViolation(err)) return { kind: 'already' };
    throw err;
  }
}

export type UnsubscribeResult = { kind: 'stopped' } | { kind: 'not-subscribed' };

export async function unsubscribe(deps: { db: DB }, press: { discordUserId: string; reminderId: string }): Promise<UnsubscribeResult> {
  const account = await findAccountForDiscordUser(deps.db, press.discordUserId);
  if (!account) return { kind: 'not-subscribed' };
  return deps.db.transaction().execute(async (trx) => {
    const subscription = await findSubscription(trx, press.reminderId, account.id);
    if (!subscription) return { kind: 'not-subscribed' } as const;
    await deleteSubscription(trx, subscription);
    return { kind: 'stopped' } as const;
  });
}

/** The reminders an account follows (the bot's /reminders), at most `limit`. */
export function followedReminders(deps: { db: DB }, accountId: string, limit = 10): Promise<FollowedReminder[]> {
  return listFollowedReminders(deps.db, accountId, limit);
}
