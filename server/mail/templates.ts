/**
 * What Chime's mails say: each one as plain text and HTML, in the recipient account's language.
 * Every value that comes from a user (the message, a username, an address) is escaped in the HTML.
 */
import { alertLeadText } from '../lib/alert-lead.ts';
import type { Language } from '../lib/language.ts';
import { mt } from './i18n.ts';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A subject line from free text: one line, at most `max` characters, with an ellipsis when cut. */
export function subjectText(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** "Label: value", with the space French puts before a colon ("Choisir un nouveau mot de passe : http…"). */
export function labelled(lang: Language, label: string, value: string): string {
  return `${label}${lang === 'fr' ? ' :' : ':'} ${value}`;
}

function page(lang: Language, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head><body style="margin:0;padding:24px;background:#f6f7f9;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827"><div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px;line-height:1.5">${body}</div></body></html>`;
}

const button = (href: string, label: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:8px;font-weight:600">${escapeHtml(label)}</a></p>`;
const actionLink = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;margin:0 8px 8px 0;border:1px solid #c7d2fe;color:#4338ca;text-decoration:none;padding:6px 14px;border-radius:8px;font-weight:600">${escapeHtml(label)}</a>`;
const small = (text: string) => `<p style="font-size:13px;color:#6b7280">${escapeHtml(text)}</p>`;
const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(p)}</p>`)
    .join('');

export interface ReminderMailInput {
  lang: Language;
  message: string;
  /** The occurrence, in the reminder's zone. */
  occurrenceUtc: string;
  timezone: string;
  late: boolean;
  /** An alert this many minutes before the occurrence (docs/time.md "Alerts before"): the subject says how soon. */
  alertMinutes?: number | undefined;
  /** The reminder's page; null for a test send. */
  link: string | null;
  /**
   * Action links (docs/notifications.md "Action links"): label and signed link of Snooze 10 min,
   * Tomorrow and Done, shown under the message; none for a test send. Opening one only shows a
   * confirmation page (GET /a/:token changes nothing; its button POSTs), so a mail scanner that
   * fetches every link acts on nothing.
   */
  actions?: ReadonlyArray<{ label: string; url: string }>;
  address: string;
  username: string;
  test: boolean;
}

function formatWhen(lang: Language, iso: string, timeZone: string): string {
  try {
    return `${new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(new Date(iso))} (${timeZone})`;
  } catch {
    return iso;
  }
}

export function reminderMail(input: ReminderMailInput): MailContent {
  const { lang } = input;
  const subject = input.test
    ? mt(lang, 'reminder.testSubject')
    : input.alertMinutes
      ? mt(lang, 'reminder.alertSubject', { when: alertLeadText(lang, input.alertMinutes), message: subjectText(input.message) })
      : mt(lang, 'reminder.subject', { message: subjectText(input.message) });
  const scheduled = mt(lang, 'reminder.scheduled', { when: formatWhen(lang, input.occurrenceUtc, input.timezone) });
  const late = input.late && !input.alertMinutes ? mt(lang, 'reminder.late') : null;
  const open = input.link ? mt(lang, 'reminder.open') : null;
  const footer = mt(lang, 'reminder.footer', { address: input.address, username: input.username });
  const actions = input.actions ?? [];
  const text = [
    input.message,
    '',
    scheduled,
    ...(late ? [late] : []),
    ...(actions.length > 0 ? ['', ...actions.map((a) => labelled(lang, a.label, a.url))] : []),
    ...(open && input.link ? ['', labelled(lang, open, input.link)] : []),
    '',
    '-- ',
    footer,
  ].join('\n');
  const html = page(
    lang,
    [
      paragraphs(input.message),
      `<p style="margin:16px 0 0;color:#374151">${escapeHtml(scheduled)}</p>`,
      late ? `<p style="color:#b45309">${escapeHtml(late)}</p>` : '',
      actions.length > 0 ? `<p style="margin:20px 0 0">${actions.map((a) => actionLink(a.url, a.label)).join('')}</p>` : '',
      input.link && open ? button(input.link, open) : '',
      `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px">`,
      small(footer),
    ].join(''),
  );
  return { subject, text, html };
}

export function confirmationMail(lang: Language, username: string, link: string): MailContent {
  const intro = mt(lang, 'confirm.intro', { username });
  const action = mt(lang, 'confirm.action');
  const validity = mt(lang, 'confirm.validity');
  const ignore = mt(lang, 'confirm.ignore');
  return {
    subject: mt(lang, 'confirm.subject'),
    text: [intro, '', labelled(lang, action, link), '', validity, ignore].join('\n'),
    html: page(lang, [`<p>${escapeHtml(intro)}</p>`, button(link, action), small(validity), small(ignore)].join('')),
  };
}

export function passwordResetMail(lang: Language, email: string, link: string): MailContent {
  const intro = mt(lang, 'reset.intro', { email });
  const action = mt(lang, 'reset.action');
  const validity = mt(lang, 'reset.validity');
  const ignore = mt(lang, 'reset.ignore');
  return {
    subject: mt(lang, 'reset.subject'),
    text: [intro, '', labelled(lang, action, link), '', validity, ignore].join('\n'),
    html: page(lang, [`<p>${escapeHtml(intro)}</p>`, button(link, action), small(validity), small(ignore)].join('')),
  };
}

export type SecurityChange = 'password_changed' | 'two_factor_enabled' | 'two_factor_disabled' | 'passkey_removed' | 'passkeys_removed_by_admin';

/**
 * A change to how the account signs in (docs/security.md): what changed, and what to do if it was
 * not its owner. `name` is the passkey's, for 'passkey_removed'; the passkeys' names, for
 * 'passkeys_removed_by_admin'.
 */
export function securityNoticeMail(lang: Language, email: string, change: SecurityChange, name = ''): MailContent {
  const [subject, body] =
    change === 'passkeys_removed_by_admin'
      ? [mt(lang, 'security.subjectPasskeysRemovedByAdmin'), mt(lang, 'security.passkeysRemovedByAdmin', { email, names: name })]
      : change === 'passkey_removed'
      ? [mt(lang, 'security.subjectPasskeyRemoved'), mt(lang, 'security.passkeyRemoved', { email, name })]
      : change === 'password_changed'
      ? [mt(lang, 'security.subjectPasswordChanged'), mt(lang, 'security.passwordChanged', { email })]
      : change === 'two_factor_enabled'
        ? [mt(lang, 'security.subjectTwoFactorEnabled'), mt(lang, 'security.twoFactorEnabled', { email })]
        : [mt(lang, 'security.subjectTwoFactorDisabled'), mt(lang, 'security.twoFactorDisabled', { email })];
  // The administrator acted on the owner's request: "if you did not ask for this", not "if this was not you".
  const notYou = mt(lang, change === 'passkeys_removed_by_admin' ? 'security.notAsked' : 'security.notYou');
  return { subject, text: [body, '', notYou].join('\n'), html: page(lang, [`<p>${escapeHtml(body)}</p>`, small(notYou)].join('')) };
}
