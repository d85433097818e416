import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * All locale files are bundled at build time from the repo-level `locales/` folder (shared with the
 * Discord bot). A new `locales/<lng>/<namespace>.json` is picked up without touching this file.
 */
export const LANGUAGES = ['en', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_STORAGE_KEY = 'language';
export const FALLBACK_LANGUAGE: Language = 'en';

const files = import.meta.glob<Record<string, unknown>>('../../../locales/*/*.json', { eager: true, import: 'default' });

type Resources = Record<string, Record<string, Record<string, unknown>>>;
const resources: Resources = {};
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([a-z]{2})\/([\w-]+)\.json$/.exec(file);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  (resources[lng] ??= {})[ns] = content;
}
export const NAMESPACES = Object.keys(resources[FALLBACK_LANGUAGE] ?? {});

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(value)) return value;
  } catch {
    /* storage blocked */
  }
  return FALLBACK_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

function syncHtmlLang(lng: string) {
  document.documentElement.lang = lng;
}
syncHtmlLang(i18n.language);
i18n.on('languageChanged', syncHtmlLang);

export function changeLanguage(lng: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    /* ignore */
  }
  void i18n.changeLanguage(lng);
}

export default i18n;
