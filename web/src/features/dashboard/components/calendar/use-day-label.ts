import { useTranslation } from 'react-i18next';
import { plainDateMs } from './calendar-dates';

/** The accessible name of a day of the calendar, for its grid cell or its row in the phone list. */
export function useDayLabel() {
  const { t, i18n } = useTranslation('calendar');
  const language = i18n.language;
  /*
   * A day's accessible name starts with the text the day shows (its number; on phones also the
   * short weekday), so speech users can say what they see (WCAG 2.5.3); the full date and the
   * count follow. Chips and count badges sit outside the button, hidden from assistive tech.
   */
  return (date: string, count: number, shown: string) => {
    const long = new Intl.DateTimeFormat(language, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(plainDateMs(date));
    return count > 0 ? t('day.withReminders', { day: shown, date: long, count }) : t('day.label', { day: shown, date: long });
  };
}
