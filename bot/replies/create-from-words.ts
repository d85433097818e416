import type { RepliableInteraction } from 'discord.js';
import type { FastifyInstance } from 'fastify';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import type { RawDestination } from '../../server/destinations/validate.ts';
import { t } from '../../server/discord/i18n.ts';
import { unix } from '../../server/discord/message-text.ts';
import { AppError } from '../../server/errors.ts';
import { createReminder } from '../../server/reminders/service.ts';
import { readScheduleInput } from '../schedule-input.ts';
import { createdReminderText } from './created-reply.ts';
import { replyEphemeral } from './reply.ts';

export interface WordsReminder {
  message: string;
  /** When, in words, as /remind reads them. */
  when: string;
  /** /remind's repeat option, if any. */
  repeat: string | null;
  destination: RawDestination;
  /** Where, as the confirmation says it. */
  destinationText: string;
  /** Alerts before each occurrence, in minutes (/remind's alert option). */
  alerts?: number[];
}

/**
 * What /remind and "Remind me about this" do once they know the text and where: the user's account
 * and zone, the time read from words, the reminder made by the same call, rules and error codes as
 * POST /api/reminders, and the confirmation (or why not) as an ephemeral reply.
 */
export async function createReminderFromWords(app: FastifyInstance, interaction: RepliableInteraction, input: WordsReminder): Promise<void> {
  const locale = interaction.locale;
  const account = await ensureAccountForDiscordUser(app.db, interaction.user, locale, interaction.guildId);
  const now = Date.now();
  const parsed = readScheduleInput(input.when, input.repeat, account.timezone, locale, now);
  if (!parsed.ok) return replyEphemeral(interaction, parsed.text);

  let reminder;
  try {
    ({ reminder } = await createReminder(
      app,
      account.id,
      {
        message: input.message,
        date: parsed.date,
        time: parsed.time,
        timezone: account.timezone,
        recurrence: parsed.recurrence,
        rrule: parsed.rrule,
        destinations: [input.destination],
        alerts: (input.alerts ?? []).map((minutes) => ({ before_minutes: minutes })),
      },
      { nowMs: now },
    ));
  } catch (err) {
    if (err instanceof AppError && err.code === 'REMINDER_IN_PAST') {
      return replyEphemeral(interaction, t(locale, 'remind.past', { unix: unix(parsed.instantMs), examples: t(locale, 'remind.examples') }));
    }
    throw err;
  }
  await replyEphemeral(interaction, await createdReminderText(app, account.id, locale, reminder, input.destinationText, now));
}
