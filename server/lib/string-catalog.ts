/**
 * Server-side strings from locales/{en,fr,es}/<namespace>.json: a deliberately tiny i18next
 * look-alike (dotted keys, `{{var}}` interpolation, English fallback) shared by the bot, the mails
 * and the recurrence sentences.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES, type Language } from './language.ts';
import { LOCALES_DIR } from './paths.ts';

type Tree = { [key: string]: string | Tree };
export type Vars = Record<string, string | number>;

export interface StringCatalog {
  /** The text of `key` in `lang`, else in English, else the key itself, with `{{var}}` filled in. */
  translate(lang: Language, key: string, vars?: Vars): string;
  /** The text of `key` in `lang` itself (no fallback), or undefined. */
  own(lang: Language, key: string): string | undefined;
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function loadStringCatalog(namespace: string): StringCatalog {
  // LOCALES_DIR is right both from the sources (tsx) and from the compiled bundle in dist/.
  const trees = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(path.join(LOCALES_DIR, lang, `${namespace}.json`), 'utf8')) as Tree]),
  ) as Record<Language, Tree>;
  return {
    translate(lang, key, vars = {}) {
      const value = lookup(trees[lang], key) ?? lookup(trees.en, key) ?? key;
      return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
    },
    own: (lang, key) => lookup(trees[lang], key),
  };
}
