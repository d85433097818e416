/**
 * The bot's strings live in locales/{en,fr,es}/bot.json, next to the dashboard's namespaces.
 * A deliberately tiny i18next look-alike: dotted keys, `{{var}}` interpolation, English fallback.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES_DIR } from '../server/lib/paths.ts';

export const LANGUAGES = ['en', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Discord locale codes the command names and descriptions are localized into. */
export const DISCORD_LOCALES: Record<string, Language> = { fr: 'fr', 'es-ES': 'es', 'es-419': 'es' };

type Tree = { [key: string]: string | Tree };

function load(lang: Language): Tree {
  // LOCALES_DIR is right both from the sources (tsx) and from the compiled bundle in dist/.
  return JSON.parse(readFileSync(path.join(LOCALES_DIR, lang, 'bot.json'), 'utf8')) as Tree;
}

const catalogs: Record<Language, Tree> = { en: load('en'), fr: load('fr'), es: load('es') };

/** Discord locale (or an account locale like "fr" / "es-ES") -> one of our languages. */
export function languageOf(locale: string | null | undefined): Language {
  const l = (locale ?? '').toLowerCase();
  if (l === 'fr' || l.startsWith('fr-')) return 'fr';
  if (l === 'es' || l.startsWith('es-')) return 'es';
  return 'en';
}

function lookup(tree: Tree, key: string): string | Tree | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return node;
}

export function has(lang: Language, key: string): boolean {
  return typeof lookup(catalogs[lang], key) === 'string';
}

export type Vars = Record<string, string | number>;

/** Translates `key` for a Discord locale or language; missing keys fall back to English, then to the key. */
export function t(locale: string | null | undefined, key: string, vars: Vars = {}): string {
  const lang = languageOf(locale);
  let value = lookup(catalogs[lang], key);
  if (typeof value !== 'string') value = lookup(catalogs.en, key);
  if (typeof value !== 'string') return key;
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** `{ fr: ..., 'es-ES': ..., 'es-419': ... }` for a key, for name_localizations / description_localizations. */
export function localizations(key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [discordLocale, lang] of Object.entries(DISCORD_LOCALES)) {
    const value = lookup(catalogs[lang], key);
    if (typeof value === 'string') out[discordLocale] = value;
  }
  return out;
}
