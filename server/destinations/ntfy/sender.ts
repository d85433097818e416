/**
 * Delivery to ntfy: one JSON publish (`POST <server>/` with `topic`, ntfy's "publish as JSON")
 * per attempt: the title and the reminder's text, the reminder's page as the click link, and
 * Snooze 10 min / Tomorrow / Done as `http` action buttons that POST the delivery's action links
 * (docs/notifications.md). The access token goes in `Authorization: Bearer` and nowhere else.
 */
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { pushCodesOf, resultOfAnswer, resultOfNetworkError } from '../push-common/codes.ts';
import { createPushClient } from '../push-common/http.ts';
import { pushContent } from '../push-common/notification.ts';
import type { SenderDeps } from '../types.ts';
import { fail } from '../webhook/codes.ts';

export const NTFY_USER_AGENT = 'Chime-Notifications/1.0';
export const NTFY_CODES = pushCodesOf('NTFY');
/** ntfy keeps messages up to 4096 bytes as text. */
const MAX_MESSAGE = 4000;

export function ntfySenderOf(deps: Pick<SenderDeps, 'db' | 'config'>): DestinationSender {
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
  return {
    concurrencyKey(destination) {
      try {
        return `ntfy:${new URL(String(destination.metadata.server)).host}`;
      } catch {
        return 'ntfy:invalid';
      }
    },
    async send(ctx): Promise<SendResult> {
      const meta = ctx.destination.metadata as { server?: unknown; topic?: unknown; priority?: unknown; tags?: unknown };
      let url: URL;
      try {
        url = new URL(`${String(meta.server)}/`);
      } catch {
        return fail(NTFY_CODES.MISCONFIGURED, 'The ntfy server address is not a valid URL', false);
      }
      if (typeof meta.topic !== 'string' || !meta.topic) return fail(NTFY_CODES.MISCONFIGURED, 'The ntfy topic is missing', false);
      const content = await pushContent(deps, ctx);
      const body = {
        topic: meta.topic,
        title: content.title,
        message: Array.from(content.message).slice(0, MAX_MESSAGE).join(''),
        ...(typeof meta.priority === 'number' ? { priority: meta.priority } : {}),
        ...(Array.isArray(meta.tags) && meta.tags.length ? { tags: meta.tags } : {}),
        ...(content.click ? { click: content.click } : {}),
        ...(content.actions.length
          ? { actions: content.actions.map((a) => ({ action: 'http', label: a.label, url: a.url, method: 'POST', clear: true })) }
          : {}),
      };
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': NTFY_USER_AGENT };
      if (ctx.destination.secret) headers.authorization = `Bearer ${ctx.destination.secret}`;
      try {
        const answer = await client.send(url, { method: 'POST', headers, body: JSON.stringify(body) }, ctx.signal);
        return resultOfAnswer('NTFY', answer.status, url.host, answer.text, answer.retryAfter);
      } catch (err) {
        return resultOfNetworkError('NTFY', err, url.host);
      }
    },
    close: () => client.close(),
  };
}
