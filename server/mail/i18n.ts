/**
 * The mails' strings: locales/{en,fr,es}/mail.json, with the bot's tiny look-alike of i18next
 * (dotted keys, `{{var}}`, English fallback). Values are plain text; templates.ts escapes them for
 * HTML.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { accountLanguage, LANGUAGES, type Language } from '../lib/language.ts';
import { LOCALES_DIR } from '../lib/paths.ts';

type Tree = { [key: string]: string | Tree };

const catalogs = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(path.join(LOCALES_DIR, lang, 'mail.json'), 'utf8')) as Tree]),
) as Record<Language, Tree>;

/** An account locale ("fr", "es-ES", a Discord locale, null) -> one of the mail languages. */
export function mailLanguage(locale: string | null | undefined): Language {
  return accountLanguage(locale) ?? 'en';
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function mt(lang: Language, key: string, vars: Record<string, string> = {}): string {
  const value = lookup(catalogs[lang], key) ?? lookup(catalogs.en, key) ?? key;
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => vars[name] ?? whole);
}
