import type { FastifyInstance } from 'fastify';
import { isConfirmed } from '../../mail/email-addresses.ts';
import { mailLanguage } from '../../mail/i18n.ts';
import { createMailService } from '../../mail/service.ts';
import { reminderMail } from '../../mail/templates.ts';
import { createMailer, EMAIL_CODES } from '../../mail/transport.ts';
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { reminderPageUrl } from '../../lib/reminder-page-url.ts';
import { LINK_ACTIONS } from '../../lib/action-token.ts';
import { actionLinksFor } from '../../reminders/action-link-urls.ts';
import { ACTION_LABEL_KEYS, nt } from '../../reminders/action-page.ts';
import { emailAddressOf } from './address.ts';

/**
 * Sends reminders by mail; null without SMTP settings (deliveries then fail with
 * DESTINATION_NOT_CONFIGURED). Every send checks that the address is confirmed for the account
 * and counts in the account's hourly cap (kept in the database, so it holds across threads).
 * The sender opens its own SMTP transport from the config: it may run in the scheduler's worker
 * thread, where the app's mail service does not exist.
 */
export function emailSenderOf(app: Pick<FastifyInstance, 'db' | 'config'>): DestinationSender | null {
  const config = app.config.mail;
  if (!config) return null;
  const mailer = createMailer(config);
  const mail = createMailService(app.db, config, mailer);
  return {
    close: () => mailer.close(),
    // One SMTP server behind every address.
    concurrencyKey: () => 'email',
    async send(ctx): Promise<SendResult> {
      const address = emailAddressOf(ctx.destination.metadata);
      if (!address || !(await isConfirmed(app.db, ctx.account.id, address))) {
        return {
          ok: false,
          code: EMAIL_CODES.EMAIL_NOT_CONFIRMED,
          error: `${address || 'This address'} has not confirmed that it wants Chime's reminders: open the link mailed to it`,
          retryable: false,
        };
      }
      // Snooze 10 min, Tomorrow, Done: signed per delivery and action, as ntfy and push sign theirs
      // (push-common/notification.ts), for every recurrence. A test send has no reminder to act
      // on, so no links. A mail scanner or link checker that fetches them acts on nothing: a GET
      // of an action link only shows a confirmation page whose button POSTs (routes/actions).
      // An alert's links would act on an occurrence that has not come yet: none.
      const links = ctx.test || ctx.alert
        ? null
        : await actionLinksFor(app, { deliveryId: ctx.deliveryId, reminderId: ctx.reminder.id, occurrenceUtc: ctx.occurrenceUtc });
      const language = mailLanguage(ctx.account.locale);
      const content = reminderMail({
        lang: language,
        message: ctx.reminder.message,
        occurrenceUtc: ctx.occurrenceUtc,
        timezone: ctx.reminder.timezone,
        late: ctx.late,
        alertMinutes: ctx.alert?.beforeMinutes,
        link: ctx.test ? null : reminderPageUrl(app.config.publicUrl, ctx.reminder.id),
        actions: links ? LINK_ACTIONS.map((action) => ({ label: nt(language, ACTION_LABEL_KEYS[action]), url: links[action] })) : [],
        address,
        username: ctx.account.username,
        test: ctx.test === true,
      });
      const result = await mail.send(ctx.account.id, 'reminder', address, content);
      if (result.ok) return { ok: true };
      return {
        ok: false,
        code: result.code,
        error: result.error,
        retryable: result.retryable,
        ...('retryAfterMs' in result ? { retryAfterMs: result.retryAfterMs } : {}),
      };
    },
  };
}
