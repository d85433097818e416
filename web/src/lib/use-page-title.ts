import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Sets the tab's title to "<page> - Chime" (in the current language) while the route is shown.
 * `page` null/undefined/empty gives plain "Chime" (e.g. while the page's own data loads).
 */
export function usePageTitle(page: string | null | undefined): void {
  const { t } = useTranslation('common');
  const title = page ? t('pageTitle.format', { page }) : t('pageTitle.app');
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** A reminder's message as a tab title: first line, spaces collapsed, at most 40 characters. */
export function titleFromMessage(message: string, max = 40): string {
  const line = message.split('\n').find((l) => l.trim()) ?? '';
  const text = line.replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : text;
}
