/**
 * Delivery to a browser (RFC 8030): one POST to the subscription's endpoint, the notification
 * encrypted for the browser (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC
 * 8292), both by the `web-push` library; the request itself goes through the SSRF-guarded push
 * client. The payload is what the dashboard's service worker shows (web/public/sw.js): `{ title,
 * body, url, actions: [{ action, title, url }] }`, the actions being the delivery's action links.
 */
import webPush from 'web-push';
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { resultOfNetworkError } from '../push-common/codes.ts';
import { createPushClient } from '../push-common/http.ts';
import { pushContent } from '../push-common/notification.ts';
import type { SenderDeps } from '../types.ts';
import { fail } from '../webhook/codes.ts';
import { resultOfPushAnswer, WEB_PUSH_CODES } from './answers.ts';
import { vapidKeys } from './vapid.ts';

/** How long a push service keeps a notification for a browser that is offline: a day-old reminder still matters. */
export const WEB_PUSH_TTL_SECONDS = 24 * 60 * 60;
/**
 * Push services take 4096 bytes of encrypted body (RFC 8030 section 7.2); aes128gcm adds 86
 * bytes of header, a 16-byte tag and a delimiter. The message is shortened to keep the rest.
 */
const MAX_PLAINTEXT_BYTES = 3800;

export interface WebPushPayload {
  title: string;
  body: string;
  /** The reminder's page; absent for a test send. */
  url?: string;
  actions: Array<{ action: string; title: string; url: string }>;
}

/** The payload, its message cut by whole characters until the JSON fits. */
export function payloadOf(content: { title: string; message: string; click: string | null; actions: Array<{ action: string; label: string; url: string }> }): string {
  const base = {
    title: content.title,
    ...(content.click ? { url: content.click } : {}),
    actions: content.actions.map((a) => ({ action: a.action, title: a.label, url: a.url })),
  };
  let chars = Array.from(content.message);
  for (;;) {
    const text = JSON.stringify({ ...base, body: chars.join('') } satisfies WebPushPayload);
    if (Buffer.byteLength(text) <= MAX_PLAINTEXT_BYTES || chars.length === 0) return text;
    chars = chars.slice(0, Math.max(0, chars.length - Math.ceil((Buffer.byteLength(text) - MAX_PLAINTEXT_BYTES) / 4) - 1));
    chars.push('…');
    if (chars.length === 1) chars = [];
  }
}

export function webPushSenderOf(deps: Pick<SenderDeps, 'db' | 'config'>): DestinationSender {
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
  return {
    concurrencyKey(destination) {
      try {
        return `web_push:${new URL(String(destination.metadata.endpoint)).host}`;
      } catch {
        return 'web_push:invalid';
      }
    },
    async send(ctx): Promise<SendResult> {
      const meta = ctx.destination.metadata as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
      let url: URL;
      try {
        url = new URL(String(meta.endpoint));
      } catch {
        return fail(WEB_PUSH_CODES.MISCONFIGURED, 'The push subscription has no valid endpoint', false);
      }
      if (typeof meta.keys?.p256dh !== 'string' || typeof meta.keys.auth !== 'string') return fail(WEB_PUSH_CODES.MISCONFIGURED, 'The push subscription has no keys', false);
      const content = await pushContent(deps, ctx);
      const vapid = await vapidKeys(deps.db);
      let details: ReturnType<typeof webPush.generateRequestDetails>;
      try {
        details = webPush.generateRequestDetails({ endpoint: url.href, keys: { p256dh: meta.keys.p256dh, auth: meta.keys.auth } }, payloadOf(content), {
          vapidDetails: { subject: deps.config.vapidSubject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          TTL: WEB_PUSH_TTL_SECONDS,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
        });
      } catch (err) {
        // A key the library cannot encrypt to (validated when saved, so a row edited by hand).
        return fail(WEB_PUSH_CODES.MISCONFIGURED, `The push subscription cannot be used: ${(err as Error).message.slice(0, 200)}`, false);
      }
      const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      try {
        const answer = await client.send(url, { method: 'POST', headers, body: details.body as Buffer }, ctx.signal);
        return resultOfPushAnswer(answer.status, url.host, answer.text, answer.retryAfter);
      } catch (err) {
        return resultOfNetworkError('WEB_PUSH', err, url.host);
      }
    },
    close: () => client.close(),
  };
}
