import { DISCORD_LOCALES, languageOf } from '../../server/discord/i18n.ts';
import { loadStringCatalog, type Vars } from '../../server/lib/string-catalog.ts';

/**
 * The strings of `/server` and its buttons: locales/{en,fr,es}/bot-servers.json (a namespace of its
 * own, like the dashboard's `servers`; never shipped to the browser, as bot.json). Error codes the
 * servers service throws are worded with the other codes, in bot.json (bot/replies/reply.ts).
 */
const catalog = loadStringCatalog('bot-servers');

export function st(locale: string | null | undefined, key: string, vars: Vars = {}): string {
  return catalog.translate(languageOf(locale), key, vars);
}

function localizations(key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [discordLocale, lang] of Object.entries(DISCORD_LOCALES)) {
    const value = catalog.own(lang, key);
    if (value !== undefined) out[discordLocale] = value;
  }
  return out;
}

interface Localizable {
  setName(name: string): this;
  setNameLocalizations(l: Record<string, string>): this;
  setDescription(d: string): this;
  setDescriptionLocalizations(l: Record<string, string>): this;
}

/** bot/replies/command-text.ts `localized`, over this namespace. */
export function localizedServer<T extends Localizable>(builder: T, nameKey: string, descriptionKey: string): T {
  return builder
    .setName(st('en', nameKey))
    .setNameLocalizations(localizations(nameKey))
    .setDescription(st('en', descriptionKey))
    .setDescriptionLocalizations(localizations(descriptionKey));
}
