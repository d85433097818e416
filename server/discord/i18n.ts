/**
 * Everything Chime says on Discord (the bot's answers, delivered messages and their buttons, the
 * failure notice) lives in locales/{en,fr,es}/bot.json, next to the dashboard's namespaces. Read
 * through the shared string catalog (server/lib/string-catalog.ts); the delivery senders and the
 * bot both translate here.
 */
import { type Language, languageOfLocale } from '../lib/language.ts';
import { loadStringCatalog, type Vars } from '../lib/string-catalog.ts';

export { LANGUAGES, type Language } from '../lib/language.ts';
export type { Vars };

/** Discord locale codes the command names and descriptions are localized into. */
export const DISCORD_LOCALES: Record<string, Language> = { fr: 'fr', 'es-ES': 'es', 'es-419': 'es' };

const catalog = loadStringCatalog('bot');

/** Discord locale (or an account locale like "fr" / "es-ES") -> one of our languages. */
export const languageOf = languageOfLocale;

export function has(lang: Language, key: string): boolean {
  return catalog.own(lang, key) !== undefined;
}

/** Translates `key` for a Discord locale or language; missing keys fall back to English, then to the key. */
export function t(locale: string | null | undefined, key: string, vars: Vars = {}): string {
  return catalog.translate(languageOf(locale), key, vars);
}

/** `{ fr: ..., 'es-ES': ..., 'es-419': ... }` for a key, for name_localizations / description_localizations. */
export function localizations(key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [discordLocale, lang] of Object.entries(DISCORD_LOCALES)) {
    const value = catalog.own(lang, key);
    if (value !== undefined) out[discordLocale] = value;
  }
  return out;
}
