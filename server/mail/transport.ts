/**
 * The SMTP side of email: one nodemailer transport built from SMTP_URL, and the classification of
 * its failures into stable codes. The URL carries the SMTP password: it is handed to nodemailer
 * and never logged, echoed in an error or returned by the API (nodemailer's own logger stays off).
 */
import type { Transporter } from 'nodemailer';
import { loadNodemailer } from '../lib/load-on-use.ts';
import type { MailConfig } from '../config.ts';
import type { MailContent } from './templates.ts';

/** Delivery codes of email (server/scheduler/types.ts SEND_CODES explains the scheme). */
export const EMAIL_CODES = {
  /** The address's owner has not confirmed it yet: nothing is sent to it. */
  EMAIL_NOT_CONFIRMED: 'EMAIL_NOT_CONFIRMED',
  /** The SMTP server refused the message or the recipient for good (5xx). */
  EMAIL_REJECTED: 'EMAIL_REJECTED',
  /** The SMTP server could not be reached, refused the login, or deferred (4xx): tried again later. */
  EMAIL_SMTP_UNAVAILABLE: 'EMAIL_SMTP_UNAVAILABLE',
  /** The account sent MAIL_HOURLY_LIMIT mails within the last hour: tried again when it allows. */
  EMAIL_HOURLY_LIMIT: 'EMAIL_HOURLY_LIMIT',
} as const;

export type MailFailure = { code: (typeof EMAIL_CODES)['EMAIL_REJECTED' | 'EMAIL_SMTP_UNAVAILABLE']; error: string; retryable: boolean };

export interface Mailer {
  /** Sends one message; resolves when the SMTP server accepted it, else answers why not. */
  send(to: string, content: MailContent): Promise<{ ok: true } | ({ ok: false } & MailFailure)>;
  close(): Promise<void>;
}

/**
 * Bounded waits: a reminder attempt must not hang on a silent server (nodemailer's defaults are
 * two minutes to connect and ten of socket silence).
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(config: MailConfig): Mailer {
  const transport: Transporter = loadNodemailer().createTransport({ url: config.smtpUrl, ...TIMEOUTS, logger: false, debug: false } as never, { from: config.from });
  return {
    async send(to, content) {
      try {
        await transport.sendMail({ to, subject: content.subject, text: content.text, html: content.html });
        return { ok: true };
      } catch (err) {
        return { ok: false, ...classifyMailError(err) };
      }
    },
    async close() {
      transport.close();
    },
  };
}

/**
 * A nodemailer error -> code, readable detail, retry. 5xx answers (unknown recipient, refused
 * content) are final, except authentication (535): that is the server's settings, fixed by its
 * administrator, so worth retrying. The detail is the SMTP answer or the socket error, which name
 * host and port at most, never the credentials.
 */
export function classifyMailError(err: unknown): MailFailure {
  const e = err as { code?: string; responseCode?: number; response?: string; message?: string };
  const response = typeof e.response === 'string' ? e.response.slice(0, 300) : '';
  if (e.code === 'EAUTH') return { code: EMAIL_CODES.EMAIL_SMTP_UNAVAILABLE, error: `The SMTP server refused Chime's login${response ? `: ${response}` : ''}`, retryable: true };
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) {
    return { code: EMAIL_CODES.EMAIL_REJECTED, error: `The mail server rejected the message: ${response || e.responseCode}`, retryable: false };
  }
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) {
    return { code: EMAIL_CODES.EMAIL_SMTP_UNAVAILABLE, error: `The mail server deferred the message: ${response || e.responseCode}`, retryable: true };
  }
  const detail = (e.message ?? String(err)).replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, '[url]').slice(0, 300);
  return { code: EMAIL_CODES.EMAIL_SMTP_UNAVAILABLE, error: `The mail server could not be reached: ${detail}`, retryable: true };
}
