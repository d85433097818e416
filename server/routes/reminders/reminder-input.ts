import type { DestinationType, RecurrenceType } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { checkWebhookUrl } from '../../net/address-policy.ts';
import type { DestinationInput } from '../../repositories/reminders.ts';
import { nextOccurrenceAfter } from '../../time/recurrence.ts';
import { parseDate, parseTime, wallClockToInstant } from '../../time/zoned.ts';

export const RECURRENCES: RecurrenceType[] = ['ONCE', 'YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'WORKDAYS', 'WEEKEND'];
export const MAX_MESSAGE_LENGTH = 2000;
export const DESTINATION_CAPS: Record<DestinationType, number> = { discord_dm: 1, discord_channel: 5, webhook: 5 };
/**
 * The wizard defaults the time to "now" at minute precision, so a one-off reminder for the
 * current minute is already a few seconds old when it arrives: accept it and fire at once.
 */
export const PAST_GRACE_MS = 60_000;

const SNOWFLAKE = /^\d{15,25}$/;
const PLATFORMS = ['generic', 'discord', 'slack'] as const;

export function parseRecurrence(value: unknown): RecurrenceType {
  if (value === undefined || value === null || value === '') return 'ONCE';
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  const found = RECURRENCES.find((r) => r === upper);
  if (!found) throw new AppError('INVALID_RECURRENCE', `Recurrence must be one of ${RECURRENCES.join(', ')}`);
  return found;
}

export function parseMessage(value: unknown): string {
  const message = typeof value === 'string' ? value.trim() : '';
  if (!message) throw new AppError('MESSAGE_REQUIRED', 'Message is required');
  if ([...message].length > MAX_MESSAGE_LENGTH) throw new AppError('MESSAGE_TOO_LONG', `Message must be at most ${MAX_MESSAGE_LENGTH} characters`);
  return message;
}

/** Wall-clock date and time in `timeZone` -> the anchor instant. */
export function parseWhen(date: unknown, time: unknown, timeZone: string): number {
  const d = typeof date === 'string' ? parseDate(date.trim()) : null;
  if (!d) throw new AppError('INVALID_DATE', 'Please select a date (YYYY-MM-DD, a real calendar date)');
  const t = typeof time === 'string' ? parseTime(time.trim()) : null;
  if (!t) throw new AppError('INVALID_TIME', 'Time must be HH:MM (24-hour)');
  return wallClockToInstant({ ...d, ...t }, timeZone);
}

/** The first occurrence the scheduler should fire, or null when a one-off is long past. */
export function firstFire(anchorMs: number, timeZone: string, recurrence: RecurrenceType, nowMs = Date.now()): number | null {
  const from = Math.max(anchorMs, nowMs - PAST_GRACE_MS);
  return nextOccurrenceAfter({ anchorMs, timeZone, recurrence }, from - 1);
}

type RawDestination = { id?: string; type?: string; metadata?: Record<string, unknown> };

export interface DestinationRules {
  hasDiscordIdentity: boolean;
  allowPrivateWebhookTargets: boolean;
}

export function parseDestinations(raw: RawDestination[] | undefined, rules: DestinationRules): DestinationInput[] {
  const list = raw ?? [];
  const counts: Record<DestinationType, number> = { discord_dm: 0, discord_channel: 0, webhook: 0 };
  const seen = new Set<string>();
  const out: DestinationInput[] = [];
  for (const [index, item] of list.entries()) {
    const where = `destinations[${index}]`;
    const type = item.type as DestinationType;
    // hasOwn, not `in`: "constructor" or "__proto__" are `in` every object literal.
    if (typeof type !== 'string' || !Object.hasOwn(DESTINATION_CAPS, type)) {
      throw new AppError('INVALID_DESTINATION', `${where}.type must be one of discord_dm, discord_channel, webhook`);
    }
    counts[type] += 1;
    if (counts[type] > DESTINATION_CAPS[type]) {
      const label = { discord_dm: 'direct message', discord_channel: 'channel', webhook: 'webhook' }[type];
      throw new AppError('DESTINATION_LIMIT', `A reminder can have at most ${DESTINATION_CAPS[type]} ${label} destination${DESTINATION_CAPS[type] > 1 ? 's' : ''}`);
    }
    const meta = item.metadata ?? {};
    let metadata: Record<string, unknown>;
    if (type === 'discord_dm' || type === 'discord_channel') {
      if (!rules.hasDiscordIdentity) throw new AppError('DISCORD_IDENTITY_REQUIRED', 'Connect your Discord account first');
    }
    if (type === 'discord_dm') {
      metadata = {};
    } else if (type === 'discord_channel') {
      const guildId = String(meta.guild_id ?? '');
      const channelId = String(meta.channel_id ?? '');
      const role = meta.mention_role_id === undefined || meta.mention_role_id === null || meta.mention_role_id === '' ? null : String(meta.mention_role_id);
      if (!SNOWFLAKE.test(guildId)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.guild_id must be a Discord server id`);
      if (!SNOWFLAKE.test(channelId)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.channel_id must be a Discord channel id`);
      if (role !== null && !SNOWFLAKE.test(role)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.mention_role_id must be a Discord role id`);
      // Display names come from Discord itself (the bot's interaction, or the access check's
      // snapshot); the HTTP schema does not accept them from clients.
      const names: Record<string, string> = {};
      for (const key of ['guild_name', 'channel_name', ...(role ? ['mention_role_name'] : [])]) {
        const value = meta[key];
        if (typeof value === 'string' && value.length > 0 && value.length <= 100) names[key] = value;
      }
      metadata = { guild_id: guildId, channel_id: channelId, ...(role ? { mention_role_id: role } : {}), ...names };
    } else {
      const url = typeof meta.url === 'string' ? meta.url.trim() : '';
      if (!url) throw new AppError('WEBHOOK_URL_INVALID', `${where}.metadata.url is required`);
      const problem = checkWebhookUrl(url, rules.allowPrivateWebhookTargets);
      if (problem) throw new AppError(problem.code, problem.message);
      const platform = meta.platform === undefined || meta.platform === '' ? 'generic' : String(meta.platform);
      if (!(PLATFORMS as readonly string[]).includes(platform)) {
        throw new AppError('INVALID_DESTINATION', `${where}.metadata.platform must be one of generic, discord, slack`);
      }
      const username = typeof meta.username === 'string' ? meta.username.trim() : '';
      if (username && platform === 'generic') {
        throw new AppError('INVALID_DESTINATION', `${where}.metadata.username is only used by discord and slack webhooks`);
      }
      if (username.length > 80) throw new AppError('INVALID_DESTINATION', `${where}.metadata.username must be at most 80 characters`);
      metadata = { url, platform, ...(username ? { username } : {}) };
    }
    const key = `${type}:${JSON.stringify(metadata)}`;
    if (seen.has(key)) throw new AppError('INVALID_DESTINATION', `${where} is the same destination as an earlier one`);
    seen.add(key);
    out.push({ ...(item.id ? { id: item.id } : {}), type, metadata });
  }
  return out;
}
