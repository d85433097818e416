import { MessageFlags, type RepliableInteraction } from 'discord.js';
import { DatabaseBusyError } from '../server/db/sqlite-busy.ts';
import { StorageFullError } from '../server/db/storage-full.ts';
import { AppError, type ErrorCode } from '../server/errors.ts';
import { t } from './i18n.ts';
import { truncate } from './format.ts';

/** Ephemeral text reply that never pings anyone, whatever the text contains. */
export async function replyEphemeral(interaction: RepliableInteraction, content: string): Promise<void> {
  const payload = { content: truncate(content, 2000), allowedMentions: { parse: [] } };
  if (interaction.deferred || interaction.replied) {
    await interaction.followUp({ ...payload, flags: MessageFlags.Ephemeral });
  } else {
    await interaction.reply({ ...payload, flags: MessageFlags.Ephemeral });
  }
}

/** AppError codes the bot can run into, with their bot.json keys. */
const ERROR_KEYS: Partial<Record<ErrorCode, string>> = {
  MESSAGE_REQUIRED: 'errors.MESSAGE_REQUIRED',
  MESSAGE_TOO_LONG: 'errors.MESSAGE_TOO_LONG',
  REMINDER_IN_PAST: 'errors.REMINDER_IN_PAST',
  REMINDER_NOT_FOUND: 'errors.REMINDER_NOT_FOUND',
  INVALID_TIMEZONE: 'errors.INVALID_TIMEZONE',
  INVALID_RECURRENCE: 'errors.INVALID_RECURRENCE',
  RRULE_INVALID: 'errors.RRULE_INVALID',
  OCCURRENCE_INVALID: 'errors.OCCURRENCE_INVALID',
  SKIP_LIMIT: 'errors.SKIP_LIMIT',
  DATABASE_BUSY: 'errors.DATABASE_BUSY',
  DESTINATION_LIMIT: 'errors.DESTINATION_LIMIT',
};

/** An AppError in the user's language, else its English message; null for anything else (a bug). */
export function errorText(locale: string | null | undefined, err: unknown): string | null {
  if (err instanceof DatabaseBusyError) return t(locale, 'errors.DATABASE_BUSY');
  if (err instanceof StorageFullError) return t(locale, 'errors.STORAGE_FULL');
  if (!(err instanceof AppError)) return null;
  const key = ERROR_KEYS[err.code];
  return key ? t(locale, key) : err.message;
}
