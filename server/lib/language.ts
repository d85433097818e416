/**
 * The language of an API answer's human text (e.g. a reminder's `recurrence_text`): the first of
 * Chime's languages the request's Accept-Language prefers, English otherwise. The dashboard sends
 * its current language; other clients get what their header says.
 */
export const LANGUAGES = ['en', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export function languageFromHeader(header: string | string[] | undefined): Language {
  return namedLanguage(header) ?? 'en';
}

/** The first of Chime's languages the Accept-Language header asks for; null when it names none of them. */
export function namedLanguage(header: string | string[] | undefined): Language | null {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranked = value
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
      return { primary: tag.trim().toLowerCase().split('-')[0]!, q: q ? Number(q[1]) : 1, index };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const l of ranked) {
    const found = LANGUAGES.find((lang) => lang === l.primary);
    if (found) return found;
  }
  return null;
}

/**
 * An account's stored locale ("fr", "es-ES", a Discord locale such as "en-GB", or null) as one of
 * Chime's languages; null when none is stored. Mails and bot messages fall back to English.
 */
export function accountLanguage(locale: string | null | undefined): Language | null {
  if (!locale) return null;
  const primary = locale.toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l === primary) ?? 'en';
}

/** An account locale, or a Discord locale, as the language to write in: English when none is stored or known. */
export function languageOfLocale(locale: string | null | undefined): Language {
  return accountLanguage(locale) ?? 'en';
}
