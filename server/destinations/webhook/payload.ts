/** The JSON body per platform (generic, Discord, Slack) and the target and body of one reminder send. */
import type { SendContext, SendFailure } from '../../scheduler/types.ts';
import { fail, WEBHOOK_CODES } from './codes.ts';
import type { WebhookPlatform } from './index.ts';
import type { WebhookTarget } from './post.ts';
import { type BodyFormat, renderTemplate } from './template.ts';
import { reminderPageUrl } from '../../lib/reminder-page-url.ts';
import { alertText } from '../../lib/alert-lead.ts';

const DISCORD_CONTENT_MAX = 2000;
const SLACK_TEXT_MAX = 40_000;

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // Cut on a code point boundary so a surrogate pair is never split.
  return Array.from(text).slice(0, max - 1).join('') + '…';
}

export function webhookBody(
  platform: WebhookPlatform,
  fields: { type: 'reminder.due' | 'reminder.alert' | 'webhook.test'; id: string; message: string; username?: string | undefined } & Record<string, unknown>,
): string {
  if (platform === 'discord') {
    return JSON.stringify({
      content: truncate(fields.message, DISCORD_CONTENT_MAX),
      ...(fields.username ? { username: fields.username } : {}),
      // A reminder text must never ping @everyone or roles by accident.
      allowed_mentions: { parse: [] },
    });
  }
  if (platform === 'slack') {
    return JSON.stringify({ text: truncate(fields.message, SLACK_TEXT_MAX), ...(fields.username ? { username: fields.username } : {}) });
  }
  const { username: _username, ...generic } = fields;
  return JSON.stringify(generic);
}

/** The platform of stored metadata; anything unknown is a generic webhook. */
export function platformOf(metadata: Record<string, unknown>): WebhookPlatform {
  const p = metadata.platform;
  return p === 'discord' || p === 'slack' ? p : 'generic';
}

/** The body and target of one send; a test send carries a `webhook.test` payload. */
export function sendPayload(ctx: SendContext, publicUrl = ''): { target: WebhookTarget; body: string } | SendFailure {
  const meta = ctx.destination.metadata as { url?: unknown; username?: unknown; body_template?: unknown; body_format?: unknown; headers?: unknown };
  if (typeof meta.url !== 'string') return fail(WEBHOOK_CODES.URL_INVALID, 'Webhook URL is missing', false);
  const platform = platformOf(ctx.destination.metadata);
  const username = typeof meta.username === 'string' && meta.username ? meta.username : undefined;
  const target: WebhookTarget = { url: meta.url, platform, username, secret: ctx.destination.secret };
  if (platform === 'generic' && meta.headers && typeof meta.headers === 'object') target.headers = meta.headers as Record<string, string>;
  if (platform === 'generic' && typeof meta.body_template === 'string' && meta.body_template) {
    const format: BodyFormat = meta.body_format === 'text' ? 'text' : 'json';
    target.contentType = format === 'json' ? 'application/json' : 'text/plain; charset=utf-8';
    const body = renderTemplate(meta.body_template, format, {
      // An alert's {{message}} says how soon: "in 15 minutes: ..." in the account's language.
      message: ctx.alert ? alertText(ctx.account.locale, ctx.alert.beforeMinutes, ctx.reminder.message) : ctx.reminder.message,
      occurrence_at: ctx.occurrenceUtc,
      fired_at: ctx.firedAt,
      reminder_url: ctx.test ? '' : reminderPageUrl(publicUrl, ctx.reminder.id),
      reminder_id: ctx.test ? '' : ctx.reminder.id,
      id: ctx.idempotencyKey,
      timezone: ctx.reminder.timezone,
      recurrence: ctx.reminder.recurrence_type,
      late: ctx.late,
      attempt: ctx.attempt,
    });
    return { target, body };
  }
  if (ctx.test) {
    return { target, body: webhookBody(platform, { type: 'webhook.test', id: ctx.idempotencyKey, message: ctx.reminder.message, fired_at: ctx.firedAt, username }) };
  }
  // An alert before the occurrence (docs/webhooks.md "Alerts"): a type of its own, so a receiver
  // that only knows reminder.due never takes it for the occurrence; chat platforms get one line
  // saying how soon (Discord renders <t:…:R> as a live "in 15 minutes" in the reader's language).
  const alert = ctx.alert;
  const message = !alert
    ? ctx.reminder.message
    : platform === 'discord'
      ? `<t:${Math.floor(Date.parse(ctx.occurrenceUtc) / 1000)}:R>: ${ctx.reminder.message}`
      : platform === 'slack'
        ? alertText(ctx.account.locale, alert.beforeMinutes, ctx.reminder.message)
        : ctx.reminder.message;
  const body = webhookBody(platform, {
    type: alert ? 'reminder.alert' : 'reminder.due',
    id: ctx.idempotencyKey,
    reminder_id: ctx.reminder.id,
    message,
    occurrence_at: ctx.occurrenceUtc,
    fired_at: ctx.firedAt,
    recurrence: ctx.reminder.recurrence_type,
    timezone: ctx.reminder.timezone,
    late: ctx.late,
    attempt: ctx.attempt,
    ...(alert ? { alert: { before_minutes: alert.beforeMinutes, occurrence: ctx.occurrenceUtc } } : {}),
    username,
  });
  return { target, body };
}
