/**
 * The page a browser shows for an action link (docs/notifications.md "Action links"), in the
 * account's language: before the tap is confirmed (GET: link checkers and mail scanners fetch
 * links, and must not snooze anything) and after it (POST). Plain HTML, no script; every value is
 * escaped. Strings: locales/<lang>/notifications.json.
 */
import type { Language } from '../lib/language.ts';
import { loadStringCatalog, type Vars } from '../lib/string-catalog.ts';
import { reminderPageUrl } from '../lib/reminder-page-url.ts';
import type { ActionLinkOutcome, ActionLinkState, LinkAction } from './action-links.ts';

const catalog = loadStringCatalog('notifications');

export const nt = (lang: Language, key: string, vars?: Vars): string => catalog.translate(lang, key, vars);

/** The button label of each action, as the notifications show it. */
export const ACTION_LABEL_KEYS: Record<LinkAction, string> = { snooze10: 'action.snooze10', tomorrow: 'action.tomorrow', done: 'action.done' };
const CONFIRM_KEYS: Record<LinkAction, string> = { snooze10: 'page.confirm.snooze10', tomorrow: 'page.confirm.tomorrow', done: 'page.confirm.done' };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An instant as the account reads it: its language, the reminder's zone. */
export function whenText(lang: Language, iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** The sentence that says what happened (also the JSON answer's `text`). */
export function outcomeText(outcome: ActionLinkOutcome): string {
  const lang = outcome.language ?? 'en';
  switch (outcome.kind) {
    case 'snoozed':
      return nt(lang, 'page.snoozed', { when: whenText(lang, outcome.nextFireUtc, outcome.timezone) });
    case 'done':
      return nt(lang, outcome.snoozeCancelled ? 'page.doneSnoozeCancelled' : 'page.done');
    case 'used':
      return nt(lang, 'page.used');
    case 'expired':
      return nt(lang, 'page.expired');
    case 'gone':
      return nt(lang, 'page.gone');
    case 'invalid':
      return nt(lang, 'page.invalid');
  }
}

function page(lang: Language, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(nt(lang, 'page.title'))}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1f2937}
blockquote{margin:1rem 0;padding:.5rem 1rem;border-left:4px solid #6366f1;background:#f3f4f6;white-space:pre-wrap;overflow-wrap:anywhere}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#4f46e5;color:#fff;cursor:pointer}a{color:#4f46e5}</style>
</head><body>${body}</body></html>`;
}

const quote = (message: string) => `<blockquote>${escapeHtml(message.length > 500 ? `${Array.from(message).slice(0, 499).join('')}…` : message)}</blockquote>`;

/** Before the tap: what the link will do, and one button that does it. */
export function confirmPage(state: ActionLinkState, publicUrl: string): string {
  if (state.kind !== 'ready') return resultPage(state, publicUrl);
  const lang = state.language;
  return page(
    lang,
    `<h1>${escapeHtml(nt(lang, CONFIRM_KEYS[state.action]))}</h1>${quote(state.message)}
<form method="post" enctype="text/plain"><button type="submit">${escapeHtml(nt(lang, ACTION_LABEL_KEYS[state.action]))}</button></form>`,
  );
}

/** After the tap: what happened. */
export function resultPage(outcome: ActionLinkOutcome, publicUrl: string): string {
  const lang = outcome.language ?? 'en';
  const message = 'message' in outcome ? quote(outcome.message) : '';
  const link = 'reminderId' in outcome ? reminderPageUrl(publicUrl, outcome.reminderId) : publicUrl;
  return page(lang, `<h1>${escapeHtml(outcomeText(outcome))}</h1>${message}<p><a href="${escapeHtml(link)}">${escapeHtml(nt(lang, 'page.openDashboard'))}</a></p>`);
}
