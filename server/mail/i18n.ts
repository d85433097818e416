/**
 * The mails' strings: locales/{en,fr,es}/mail.json through the shared string catalog
 * (lib/string-catalog.ts). Values are plain text; templates.ts escapes them for HTML.
 */
import { type Language, languageOfLocale } from '../lib/language.ts';
import { loadStringCatalog } from '../lib/string-catalog.ts';

const catalog = loadStringCatalog('mail');

/** An account locale ("fr", "es-ES", a Discord locale, null) -> one of the mail languages. */
export const mailLanguage = languageOfLocale;

export function mt(lang: Language, key: string, vars: Record<string, string> = {}): string {
  return catalog.translate(lang, key, vars);
}
