/**
 * Delivery to a Matrix room as the administrator's bot:
 * `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}` with an `m.text` message:
 * a plain `body` and an HTML `formatted_body` (`org.matrix.custom.html`, every value escaped),
 * the title and the reminder's page link in the account's language.
 *
 * The transaction id is the delivery's idempotency key, the same across its retries: a retry of
 * an attempt whose answer was lost is deduplicated by the homeserver itself (the spec's
 * transaction idempotency), so the room never sees the reminder twice.
 */
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { createPushClient } from '../push-common/http.ts';
import { type PushContent, pushContent } from '../push-common/notification.ts';
import { nt } from '../../reminders/action-page.ts';
import type { SenderDeps } from '../types.ts';
import { fail } from '../webhook/codes.ts';
import { MATRIX_CODES } from './answers.ts';
import { matrixCall, segment } from './client.ts';

/** An event is at most 64 KiB; the text is cut well below (its HTML escaping may grow it fivefold). */
const MAX_MESSAGE = 4000;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The m.room.message content of a reminder. */
export function matrixMessage(content: PushContent): Record<string, unknown> {
  const message = Array.from(content.message).slice(0, MAX_MESSAGE).join('');
  const open = nt(content.language, 'push.open');
  const body = `${content.title}\n${message}${content.click ? `\n\n${open}: ${content.click}` : ''}`;
  const html = `<p><strong>${escapeHtml(content.title)}</strong></p><p>${escapeHtml(message).replace(/\r?\n/g, '<br>')}</p>${
    content.click ? `<p><a href="${escapeHtml(content.click)}">${escapeHtml(open)}</a></p>` : ''
  }`;
  // m.mentions without `room` or `user_ids`: the reminder's text pings nobody, even if it says @room.
  return { msgtype: 'm.text', body, format: 'org.matrix.custom.html', formatted_body: html, 'm.mentions': {} };
}

export function matrixSenderOf(deps: Pick<SenderDeps, 'db' | 'config' | 'log'>): DestinationSender | null {
  const matrix = deps.config.matrix;
  if (!matrix) return null;
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
  return {
    // One bot account, one homeserver: its rate limit is per account.
    concurrencyKey: () => 'matrix',
    async send(ctx): Promise<SendResult> {
      const roomId = ctx.destination.metadata.room_id;
      if (typeof roomId !== 'string' || !roomId.startsWith('!')) return fail(MATRIX_CODES.MISCONFIGURED, 'The Matrix room of this destination was never resolved: add it again', false);
      const content = await pushContent(deps, ctx);
      const { result } = await matrixCall(
        client,
        matrix,
        { method: 'PUT', path: `/_matrix/client/v3/rooms/${segment(roomId)}/send/m.room.message/${segment(`chime-${ctx.idempotencyKey}`)}`, body: matrixMessage(content), what: 'sending the message' },
        ctx.signal,
      );
      // The bot's token is the administrator's to fix: say so where they look (never the token itself).
      if (!result.ok && result.code === MATRIX_CODES.UNAUTHORIZED) deps.log.warn({ code: result.code, status: result.httpStatus }, 'Matrix homeserver refused MATRIX_ACCESS_TOKEN');
      return result;
    },
    close: () => client.close(),
  };
}
