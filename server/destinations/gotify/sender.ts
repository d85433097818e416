/**
 * Delivery to Gotify: `POST <server>/message` with the application token in `X-Gotify-Key`, the
 * title and text, the priority, and the reminder's page as the notification's click link
 * (`extras["client::notification"].click.url`, Gotify's message extras).
 */
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { pushCodesOf } from '../push-common/codes.ts';
import { createPushClient } from '../push-common/http.ts';
import { pushContent } from '../push-common/notification.ts';
import { sendPush } from '../push-common/send.ts';
import type { SenderDeps } from '../types.ts';
import { fail } from '../webhook/codes.ts';

export const GOTIFY_USER_AGENT = 'Chime-Notifications/1.0';
export const GOTIFY_CODES = pushCodesOf('GOTIFY');

export function gotifySenderOf(deps: Pick<SenderDeps, 'db' | 'config'>): DestinationSender {
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
  return {
    concurrencyKey(destination) {
      try {
        return `gotify:${new URL(String(destination.metadata.server)).host}`;
      } catch {
        return 'gotify:invalid';
      }
    },
    async send(ctx): Promise<SendResult> {
      const meta = ctx.destination.metadata as { server?: unknown; priority?: unknown };
      let url: URL;
      try {
        url = new URL(`${String(meta.server)}/message`);
      } catch {
        return fail(GOTIFY_CODES.MISCONFIGURED, 'The Gotify server address is not a valid URL', false);
      }
      if (!ctx.destination.secret) return fail(GOTIFY_CODES.MISCONFIGURED, 'The Gotify application token is missing', false);
      const content = await pushContent(deps, ctx);
      const body = {
        title: content.title,
        message: content.message,
        ...(typeof meta.priority === 'number' ? { priority: meta.priority } : {}),
        extras: {
          'client::display': { contentType: 'text/plain' },
          ...(content.click ? { 'client::notification': { click: { url: content.click } } } : {}),
        },
      };
      const headers = { 'content-type': 'application/json', 'user-agent': GOTIFY_USER_AGENT, 'x-gotify-key': ctx.destination.secret };
      return sendPush(client, 'GOTIFY', url, { method: 'POST', headers, body: JSON.stringify(body) }, ctx.signal);
    },
    close: () => client.close(),
  };
}
