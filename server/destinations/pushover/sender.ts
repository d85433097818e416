/**
 * Delivery to Pushover: `POST /1/messages.json` (form fields token, user, device, title,
 * message, priority, url, url_title). Pushover answers a bad parameter with 400 and names it in
 * the body (`"token": "invalid"`, `"user": "invalid"`): those become final failures with their
 * own codes; 429 (the application's monthly limit) and 5xx are retried.
 */
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { pushCodesOf, reasonOf } from '../push-common/codes.ts';
import { createPushClient } from '../push-common/http.ts';
import { pushContent } from '../push-common/notification.ts';
import { sendPush } from '../push-common/send.ts';
import type { SenderDeps } from '../types.ts';
import { fail } from '../webhook/codes.ts';
import { nt } from '../../reminders/action-page.ts';

export const PUSHOVER_USER_AGENT = 'Chime-Notifications/1.0';
export const PUSHOVER_CODES = pushCodesOf('PUSHOVER');
/** Pushover's limits: 1024 characters of message, 250 of title, 100 of URL title. */
const MAX_MESSAGE = 1024;

/** A 400 that names a bad token, user or device. */
export function readPushoverRefusal(status: number, text: string): SendResult | null {
  if (status !== 400) return null;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const why = reasonOf(text) ?? 'refused';
  if (body.token === 'invalid') return fail(PUSHOVER_CODES.UNAUTHORIZED, `Pushover refused the application token: ${why}`, false, { httpStatus: status });
  if (body.user === 'invalid' || body.device === 'invalid') return fail(PUSHOVER_CODES.NOT_FOUND, `Pushover knows no such user or device: ${why}`, false, { httpStatus: status });
  return null;
}

export function pushoverSenderOf(deps: Pick<SenderDeps, 'db' | 'config'>): DestinationSender {
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
  const url = new URL('/1/messages.json', deps.config.pushoverApiUrl);
  return {
    concurrencyKey: () => 'pushover',
    async send(ctx): Promise<SendResult> {
      const meta = ctx.destination.metadata as { user_key?: unknown; device?: unknown; priority?: unknown };
      if (!ctx.destination.secret || typeof meta.user_key !== 'string') return fail(PUSHOVER_CODES.MISCONFIGURED, 'The Pushover user key or application token is missing', false);
      const content = await pushContent(deps, ctx);
      const form = new URLSearchParams({
        token: ctx.destination.secret,
        user: meta.user_key,
        title: content.title,
        message: Array.from(content.message).slice(0, MAX_MESSAGE).join(''),
      });
      if (typeof meta.device === 'string' && meta.device) form.set('device', meta.device);
      if (typeof meta.priority === 'number') form.set('priority', String(meta.priority));
      if (content.click) {
        form.set('url', content.click);
        form.set('url_title', nt(content.language, 'push.open'));
      }
      const headers = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': PUSHOVER_USER_AGENT };
      return sendPush(client, 'PUSHOVER', url, { method: 'POST', headers, body: form.toString() }, ctx.signal, (answer) => readPushoverRefusal(answer.status, answer.text));
    },
    close: () => client.close(),
  };
}
