/**
 * Sending on an account's behalf: the hourly cap (MAIL_HOURLY_LIMIT, counted in email_sends so
 * every thread and instance sees the same count) around a Mailer. Used by app.mail (plugin.ts)
 * and by the email destination's sender, which may run in the scheduler's worker thread.
 */
import type { MailConfig } from '../config.ts';
import type { DB } from '../db/connection.ts';
import { lockAccountForWrites } from '../repositories/accounts.ts';
import { deleteEmailSend, emailSendsSince, type EmailSendKind, recordEmailSend } from '../repositories/email.ts';
import type { MailContent } from './templates.ts';
import { EMAIL_CODES, type Mailer, type MailFailure } from './transport.ts';

export const HOUR_MS = 60 * 60 * 1000;

/** Kinds the hourly cap counts: mails to addresses the account chose. Reset mails have their own throttle. */
const CAPPED_KINDS: EmailSendKind[] = ['reminder', 'confirmation'];

export type MailOutcome =
  | { ok: true }
  | ({ ok: false } & MailFailure)
  | { ok: false; code: typeof EMAIL_CODES.EMAIL_HOURLY_LIMIT; error: string; retryable: true; retryAfterMs: number };

export interface MailService {
  readonly config: MailConfig;
  /**
   * Sends a mail on the account's behalf and logs it in email_sends. Reminder and confirmation
   * mails count in the hourly cap (MAIL_HOURLY_LIMIT): over it nothing is sent and the answer
   * says when a slot frees up. A mail the SMTP server did not take is not counted.
   */
  send(accountId: string, kind: EmailSendKind, to: string, content: MailContent): Promise<MailOutcome>;
}

export function createMailService(db: DB, config: MailConfig, mailer: Mailer, now: () => number = Date.now): MailService {
  /**
   * Logs the send if the account is under its cap. Parallel sends of one account (threads,
   * instances) reserve one after the other, so they cannot both take the last slot.
   */
  async function reserve(accountId: string, kind: EmailSendKind): Promise<{ id: number } | { retryAfterMs: number }> {
    return db.transaction().execute(async (trx) => {
      const t = now();
      if (CAPPED_KINDS.includes(kind)) {
        await lockAccountForWrites(trx, accountId);
        const sent = await emailSendsSince(trx, accountId, CAPPED_KINDS, new Date(t - HOUR_MS).toISOString());
        if (sent.length >= config.hourlyLimit) {
          const oldest = Date.parse(sent[sent.length - config.hourlyLimit]!);
          return { retryAfterMs: Math.max(1000, oldest + HOUR_MS - t) };
        }
      }
      return { id: await recordEmailSend(trx, accountId, kind, new Date(t).toISOString()) };
    });
  }

  return {
    config,
    async send(accountId, kind, to, content) {
      const slot = await reserve(accountId, kind);
      if ('retryAfterMs' in slot) {
        return {
          ok: false,
          code: EMAIL_CODES.EMAIL_HOURLY_LIMIT,
          error: `This account sent ${config.hourlyLimit} mails within the last hour (MAIL_HOURLY_LIMIT)`,
          retryable: true,
          retryAfterMs: slot.retryAfterMs,
        };
      }
      const result = await mailer.send(to, content);
      if (!result.ok) await deleteEmailSend(db, slot.id);
      return result;
    },
  };
}
