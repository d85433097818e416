import { ApplicationIntegrationType, InteractionContextType } from 'discord.js';
import { localizations, t } from '../../server/discord/i18n.ts';

/**
 * Every command can be used from a server that invited the bot and by people who added Chime to
 * their own account (user install: DMs with the bot, group DMs, servers without the bot). Replies
 * are ephemeral everywhere; a channel reminder is refused where the bot cannot post
 * (bot/access.ts), a DM reminder works in every context.
 */
export const INTEGRATION_TYPES = [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall] as const;
export const CONTEXTS = [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel] as const;

interface Localizable {
  setName(name: string): this;
  setNameLocalizations(l: Record<string, string>): this;
  setDescription(d: string): this;
  setDescriptionLocalizations(l: Record<string, string>): this;
}

/**
 * Names and descriptions come from locales/<lang>/bot.json; English is the default, fr and
 * es-ES/es-419 are the localizations. Handlers always see the English names (Discord sends the
 * default name whatever the user's language). Keys are passed as literals so that the locale
 * hygiene test can see they are used.
 */
export function localized<T extends Localizable>(builder: T, nameKey: string, descriptionKey: string): T {
  return builder
    .setName(t('en', nameKey))
    .setNameLocalizations(localizations(nameKey))
    .setDescription(t('en', descriptionKey))
    .setDescriptionLocalizations(localizations(descriptionKey));
}

/** A choice `{ name, name_localizations, value }` whose label is `key`. */
export function localizedChoice<V extends string | number>(key: string, value: V) {
  return { name: t('en', key), name_localizations: localizations(key), value };
}

/** A context-menu command's name (they have no description): English, with fr/es localizations. */
export function localizedName<T extends { setName(name: string): T; setNameLocalizations(l: Record<string, string>): T }>(builder: T, nameKey: string): T {
  return builder.setName(t('en', nameKey)).setNameLocalizations(localizations(nameKey));
}
