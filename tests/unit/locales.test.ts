/**
 * Locale hygiene for `locales/{en,fr,es}/<namespace>.json` (shared by the dashboard and the bot).
 *
 * 1. Every namespace exists in every language with exactly the same keys and the same
 *    {{placeholders}}; no value is empty.
 * 2. No unused key. Convention: a key is referenced as a plain string literal somewhere in
 *    `web/src`, `bot/`, `server/destinations/` or `server/reminders/`, either namespaced
 *    ('auth:signIn.title') or bare ('signIn.title', as in `useTranslation('auth');
 *    t('signIn.title')`). Keys built at run time must be declared below
 *    in DYNAMIC_PREFIXES (e.g. `t('common:errors.' + code)`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../server/errors.ts';
import { FILE_PROBLEMS } from '../../server/reminders/transfer/formats.ts';
import { REPO_ROOT } from '../helpers/repo-root.ts';

const ROOT = REPO_ROOT;
const LOCALES = path.join(ROOT, 'locales');
const LANGUAGES = ['en', 'fr', 'es'] as const;
// server/destinations: the Discord senders word delivery errors with the bot's strings.
// server/reminders: the recurrence sentences (recurrence.json).
// server/mail: the mails (mail.json).
const SOURCE_DIRS = ['web/src', 'bot', 'server/destinations', 'server/reminders', 'server/mail'];

/** `namespace:prefix` of keys that are composed at run time; every key under them counts as used. */
const DYNAMIC_PREFIXES = [
  'common:errors.', // ApiError codes: t(`common:errors.${code}`)
  'delivery:codes.', // delivery failure codes: t(`codes.${code}`) in web/src/lib/delivery-text.ts
  'reminders:recurrence.', // recurrence_type values: t(`reminders:recurrence.${type}`)
  'reminders:customRepeat.units.', // t(`customRepeat.units.${freq}`, { count })
  'reminders:customRepeat.monthly.nth.', // t(`customRepeat.monthly.nth.${n}`)
  'portability:import.fileErrors.', // why a file cannot be read: t(`import.fileErrors.${reason}`), one per FILE_PROBLEMS
];

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') for (const [k, v] of flatten(value, full)) out.set(k, v);
    else out.set(full, String(value));
  }
  return out;
}

function namespaces(): string[] {
  const all = new Set<string>();
  for (const lng of LANGUAGES) {
    const dir = path.join(LOCALES, lng);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) if (file.endsWith('.json')) all.add(file.slice(0, -5));
  }
  return [...all].sort();
}

function load(lng: string, ns: string): Map<string, string> | null {
  const file = path.join(LOCALES, lng, `${ns}.json`);
  if (!existsSync(file)) return null;
  return flatten(JSON.parse(readFileSync(file, 'utf8')) as Tree);
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort().join(',');
}

function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const full = path.join(abs, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(path.join(dir, entry)));
    else if (/\.(ts|tsx|js|mjs)$/.test(entry)) out.push(full);
  }
  return out;
}

/** Every quoted string made only of key characters: 'ns:a.b', "a.b", `a.b`. */
function referencedStrings(): Set<string> {
  const found = new Set<string>();
  const literal = /(['"`])((?:[A-Za-z][\w-]*:)?[\w-]+(?:\.[\w-]+)*)\1/g;
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(dir)) {
      for (const match of readFileSync(file, 'utf8').matchAll(literal)) found.add(match[2] as string);
    }
  }
  return found;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

describe('locales', () => {
  const nsList = namespaces();

  it('has the base namespaces', () => {
    for (const ns of ['common', 'landing', 'auth']) expect(nsList).toContain(ns);
  });

  it('words every error code the API sends, and every reason a file cannot be imported', () => {
    const errors = load('en', 'common')!;
    expect(Object.keys(ERROR_CODES).filter((code) => !errors.has(`errors.${code}`))).toEqual([]);
    const portability = load('en', 'portability')!;
    expect(FILE_PROBLEMS.filter((reason) => !portability.has(`import.fileErrors.${reason}`))).toEqual([]);
  });

  for (const ns of nsList) {
    it(`${ns}: same keys and placeholders in ${LANGUAGES.join(', ')}`, () => {
      const en = load('en', ns);
      expect(en, `locales/en/${ns}.json is missing`).not.toBeNull();
      for (const lng of LANGUAGES) {
        const other = load(lng, ns);
        expect(other, `locales/${lng}/${ns}.json is missing`).not.toBeNull();
        const missing = [...en!.keys()].filter((k) => !other!.has(k));
        const extra = [...other!.keys()].filter((k) => !en!.has(k));
        expect(missing, `keys missing in ${lng}/${ns}.json`).toEqual([]);
        expect(extra, `keys only in ${lng}/${ns}.json (not in en)`).toEqual([]);
        const empty = [...other!.entries()].filter(([, v]) => v.trim() === '').map(([k]) => k);
        expect(empty, `empty values in ${lng}/${ns}.json`).toEqual([]);
        const badVars = [...en!.entries()].filter(([k, v]) => other!.has(k) && placeholders(other!.get(k)!) !== placeholders(v)).map(([k]) => k);
        expect(badVars, `{{placeholders}} differ from en in ${lng}/${ns}.json`).toEqual([]);
      }
    });
  }

  it('reads without doubled colons or a French colon stuck to its word (issue 27 #18)', () => {
    for (const lang of LANGUAGES) {
      const details = flatten(JSON.parse(readFileSync(path.join(LOCALES, lang, 'details.json'), 'utf8')) as Tree);
      // The reason is a sentence of its own, often with a colon inside ("The webhook no longer exists: ...").
      expect(details.get('destinations.disabled'), lang).not.toMatch(/:\s*\{\{reason\}\}/);
    }
    // An unsaved email destination sits beside the check's "Ready": its badge says what happens next.
    const link = { en: /link/i, fr: /lien/i, es: /enlace/i } as const;
    for (const lang of LANGUAGES) {
      const destinations = flatten(JSON.parse(readFileSync(path.join(LOCALES, lang, 'destinations.json'), 'utf8')) as Tree);
      expect(destinations.get('email.state.needed'), lang).toMatch(link[lang]);
    }
    // The landing page and the empty dashboard name every way a reminder is delivered, email included.
    const email = { en: /email/i, fr: /e-mail/i, es: /correo/i } as const;
    for (const lang of LANGUAGES) {
      const landing = flatten(JSON.parse(readFileSync(path.join(LOCALES, lang, 'landing.json'), 'utf8')) as Tree);
      const dashboard = flatten(JSON.parse(readFileSync(path.join(LOCALES, lang, 'dashboard.json'), 'utf8')) as Tree);
      expect(landing.get('hero.subtitle'), lang).toMatch(email[lang]);
      expect(dashboard.get('empty.description'), lang).toMatch(email[lang]);
    }
    for (const file of readdirSync(path.join(LOCALES, 'fr'))) {
      const values = flatten(JSON.parse(readFileSync(path.join(LOCALES, 'fr', file), 'utf8')) as Tree);
      for (const [key, value] of values) {
        const prose = value.replace(/https?:\/\/\S+/g, '').replace(/<code>.*?<\/code>/g, '');
        expect(prose, `fr/${file} ${key}`).not.toMatch(/\S:(\s|$)/);
      }
    }
  });

  it('has no unused keys (referenced as string literals in web/src, bot/, server/destinations/, server/reminders/ or server/mail/)', () => {
    const refs = referencedStrings();
    const unused: string[] = [];
    for (const ns of nsList) {
      for (const key of load('en', ns)?.keys() ?? []) {
        const base = key.replace(PLURAL_SUFFIX, '');
        const full = `${ns}:${base}`;
        if (refs.has(full) || refs.has(base)) continue;
        if (DYNAMIC_PREFIXES.some((p) => full.startsWith(p))) continue;
        unused.push(full);
      }
    }
    expect(unused, 'unused locale keys: remove them or reference them as string literals').toEqual([]);
  });
});
