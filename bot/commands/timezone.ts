import { SlashCommandBuilder } from 'discord.js';
import { setAccountTimeZone } from '../../server/accounts/profile.ts';
import { AppError } from '../../server/errors.ts';
import { canonicalTimeZone } from '../../server/time/zoned.ts';
import { ensureAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { CONTEXTS, INTEGRATION_TYPES, localized } from '../replies/command-text.ts';
import { formatInZone } from '../replies/format.ts';
import { truncate } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';
import { replyEphemeral } from '../replies/reply.ts';
import type { BotCommand } from '../types.ts';

let zones: string[] | null = null;
/**
 * Every IANA zone the runtime knows, plus UTC (which supportedValuesOf leaves out on some builds),
 * under the names Chime stores (Node's list has legacy spellings such as Asia/Calcutta).
 */
export function allTimeZones(): string[] {
  if (!zones) {
    const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zones = [...new Set([...list, 'UTC'].map((z) => canonicalTimeZone(z) ?? z))].sort();
  }
  return zones;
}

/** Substring match, case-insensitive, where a space also matches "_" ("new york" -> America/New_York). */
export function matchTimeZones(query: string, limit = 25): string[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, '_');
  if (!q) return allTimeZones().slice(0, limit);
  const hits = allTimeZones().filter((z) => z.toLowerCase().includes(q));
  // Best first: the city itself ("paris"), then cities starting with the query, then the rest.
  const city = (z: string) => z.slice(z.lastIndexOf('/') + 1).toLowerCase();
  const rank = (z: string) => (city(z) === q || z.toLowerCase() === q ? 0 : city(z).startsWith(q) ? 1 : 2);
  hits.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return hits.slice(0, limit);
}

const command: BotCommand = {
  data: localized(new SlashCommandBuilder(), 'commands.timezone.name', 'commands.timezone.description')
    .setIntegrationTypes(...INTEGRATION_TYPES)
    .setContexts(...CONTEXTS)
    .addStringOption((o) =>
      localized(o, 'commands.timezone.options.zone.name', 'commands.timezone.options.zone.description').setAutocomplete(true).setMaxLength(64),
    ),

  async autocomplete(interaction) {
    const focused = String(interaction.options.getFocused() ?? '');
    await interaction.respond(matchTimeZones(focused).map((z) => ({ name: z, value: z })));
  },

  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const account = await ensureAccountForDiscordUser(app.db, interaction.user, locale, interaction.guildId);
    const input = interaction.options.getString('zone');
    const timeOf = (zone: string) => formatInZone(Date.now(), zone, locale, { timeStyle: 'short' });
    if (input === null) return replyEphemeral(interaction, t(locale, 'timezone.current', { zone: account.timezone, time: timeOf(account.timezone) }));
    let zone: string;
    try {
      zone = await setAccountTimeZone(app.db, account.id, input);
    } catch (err) {
      // The bot's own words for it: the zone the user typed, and where to find one.
      if (err instanceof AppError && err.code === 'INVALID_TIMEZONE') return replyEphemeral(interaction, t(locale, 'timezone.invalid', { zone: truncate(input, 64) }));
      throw err;
    }
    await replyEphemeral(interaction, t(locale, 'timezone.set', { zone, time: timeOf(zone) }));
  },
};

export default command;
