/**
 * How an alert before a reminder says how soon it is ("in 15 minutes", "dans 1 heure", "dentro de
 * 1 día"): in whole days or hours when the alert is a whole number of them, else in minutes.
 * docs/time.md "Alerts before".
 */
export function alertLeadText(language: string | null | undefined, beforeMinutes: number): string {
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    beforeMinutes % 1440 === 0 ? [beforeMinutes / 1440, 'day'] : beforeMinutes % 60 === 0 ? [beforeMinutes / 60, 'hour'] : [beforeMinutes, 'minute'];
  try {
    return new Intl.RelativeTimeFormat(language ?? 'en', { numeric: 'always' }).format(value, unit);
  } catch {
    return new Intl.RelativeTimeFormat('en', { numeric: 'always' }).format(value, unit);
  }
}

/** "in 15 minutes: <message>" ("dans 15 minutes : …" in French), an alert where a destination shows one line of text. */
export const alertText = (language: string | null | undefined, beforeMinutes: number, message: string) =>
  `${alertLeadText(language, beforeMinutes)}${language?.toLowerCase().startsWith('fr') ? ' :' : ':'} ${message}`;
