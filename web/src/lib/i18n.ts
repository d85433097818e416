import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getUser } from './session';

/**
 * Locale files come from the repo-level `locales/` folder (shared with the Discord bot). A new
 * `locales/<lng>/<namespace>.json` is picked up without touching this file. `bot.json` and
 * `bot-*.json` are the bot's alone and are never shipped to the browser.
 *
 * English (the fallback) is bundled; the other languages are one lazy chunk each (grouped in
 * vite.config.ts), loaded before the first render when stored and on demand when switching.
 */
export const LANGUAGES = ['en', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_STORAGE_KEY = 'language';
export const FALLBACK_LANGUAGE: Language = 'en';

type Bundle = Record<string, Record<string, unknown>>;

const fallbackFiles = import.meta.glob<Record<string, unknown>>(['../../../locales/en/*.json', '!../../../locales/en/bot.json', '!../../../locales/en/bot-*.json'], {
  eager: true,
  import: 'default',
});
const lazyFiles = import.meta.glob<Record<string, unknown>>(['../../../locales/*/*.json', '!../../../locales/en/*.json', '!../../../locales/*/bot.json', '!../../../locales/*/bot-*.json'], {
  import: 'default',
});

const FILE_PATTERN = /locales\/([a-z]{2})\/([\w-]+)\.json$/;

const fallbackBundle: Bundle = {};
for (const [file, content] of Object.entries(fallbackFiles)) {
  const match = FILE_PATTERN.exec(file);
  if (match) fallbackBundle[match[2] as string] = content;
}
export const NAMESPACES = Object.keys(fallbackBundle);

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(value)) return value;
  } catch {
    /* storage blocked */
  }
  return null;
}

/**
 * The first of the browser's preferred languages that Chime speaks ("fr-CA" is French), else
 * null. Not stored: it is what a first visit shows, and the browser's setting stays in charge
 * until the user picks a language in the menu.
 */
export function browserLanguage(preferred: readonly string[] = navigatorLanguages()): Language | null {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/** The language of the signed-in account, as the sign-in answered it. */
function signedInLanguage(): Language | null {
  const language = getUser()?.language;
  return isLanguage(language) ? language : null;
}

function navigatorLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

const loaded = new Set<Language>([FALLBACK_LANGUAGE]);
const loading = new Map<Language, Promise<void>>();

/** Adds a language's namespaces to i18next (once, all together); resolves when they are usable. */
export function loadLanguage(lng: Language): Promise<void> {
  if (loaded.has(lng)) return Promise.resolve();
  let pending = loading.get(lng);
  if (!pending) {
    const entries = Object.entries(lazyFiles).filter(([file]) => FILE_PATTERN.exec(file)?.[1] === lng);
    pending = Promise.all(entries.map(async ([file, load]) => [FILE_PATTERN.exec(file)?.[2] as string, await load()] as const)).then(
      (bundles) => {
        for (const [ns, content] of bundles) i18n.addResourceBundle(lng, ns, content, true, true);
        loaded.add(lng);
        loading.delete(lng);
      },
      (err: unknown) => {
        // Let a later attempt retry (e.g. after a network blip).
        loading.delete(lng);
        throw err;
      },
    );
    loading.set(lng, pending);
  }
  return pending;
}

/** Warms the other languages (e.g. when the language menu opens) so a switch is instant. */
export function preloadLanguages(): void {
  for (const lng of LANGUAGES) loadLanguage(lng).catch(() => {});
}

// The choice made in this browser's language menu, else the signed-in account's language, else
// the browser's (docs/dashboard.md "Screens and routes").
const initialLanguage: Language = storedLanguage() ?? signedInLanguage() ?? browserLanguage() ?? FALLBACK_LANGUAGE;

void i18n.use(initReactI18next).init({
  resources: { [FALLBACK_LANGUAGE]: fallbackBundle },
  lng: initialLanguage,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  // Bundles of lazily loaded languages are added later; let i18next accept a language without them.
  partialBundledLanguages: true,
  react: { useSuspense: false },
});

function syncHtmlLang(lng: string) {
  document.documentElement.lang = lng;
}
syncHtmlLang(i18n.language);
i18n.on('languageChanged', syncHtmlLang);

/** Resolves once the first language can render (main.tsx waits for it before the first render). */
export const i18nReady: Promise<void> = loadLanguage(initialLanguage).catch((err: unknown) => {
  console.error('Could not load the language', err);
  void i18n.changeLanguage(FALLBACK_LANGUAGE);
});

let requested: Language = initialLanguage;

/** Stores the choice and switches once the language's strings are loaded. */
export function changeLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    /* ignore */
  }
  return switchTo(lng);
}

/**
 * After a sign-in: the account's language, unless this browser has a choice of its own. Not
 * stored as a choice: it comes from the session, and goes with it.
 */
export function adoptAccountLanguage(lng: string | null | undefined): void {
  if (!isLanguage(lng) || storedLanguage() !== null || lng === i18n.language) return;
  void switchTo(lng);
}

/** After a sign-out: back to the browser's language, unless this browser has a choice of its own. */
export function forgetAccountLanguage(): void {
  if (storedLanguage() !== null) return;
  const lng = browserLanguage() ?? FALLBACK_LANGUAGE;
  if (lng !== i18n.language) void switchTo(lng);
}

function switchTo(lng: Language): Promise<void> {
  requested = lng;
  // Already loaded: switch synchronously, inside the click that asked for it.
  if (loaded.has(lng)) {
    void i18n.changeLanguage(lng);
    return Promise.resolve();
  }
  return loadLanguage(lng).then(
    () => {
      // A later choice made while this one loaded wins.
      if (requested === lng) void i18n.changeLanguage(lng);
    },
    (err: unknown) => console.error('Could not load the language', err),
  );
}

export default i18n;
