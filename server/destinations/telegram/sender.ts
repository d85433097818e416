/**
 * Delivery to a Telegram chat as the administrator's bot: one `sendMessage` (message.ts) per
 * attempt. The Bot API has no idempotency key: an attempt whose answer was lost (a time-out after
 * Telegram posted) is retried and may show the reminder twice, which Chime accepts over losing it.
 */
import type { DestinationSender, SendResult } from '../../scheduler/types.ts';
import { actionTokensFor } from '../../reminders/action-link-urls.ts';
import { createPushClient } from '../push-common/http.ts';
import { pushContent } from '../push-common/notification.ts';
import type { SenderDeps } from '../types.ts';
import { fail } from '../webhook/codes.ts';
import { TELEGRAM_CODES } from './answers.ts';
import { telegramCall } from './client.ts';
import { telegramMessage } from './message.ts';
import { parseChatId } from './chat-id.ts';

export function telegramSenderOf(deps: Pick<SenderDeps, 'db' | 'config' | 'log'>): DestinationSender | null {
  const telegram = deps.config.telegram;
  if (!telegram) return null;
  const client = createPushClient({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets });
  return {
    // One bot: Telegram's limits are per bot.
    concurrencyKey: () => 'telegram',
    async send(ctx): Promise<SendResult> {
      const chatId = parseChatId(ctx.destination.metadata.chat_id);
      if (!chatId) return fail(TELEGRAM_CODES.MISCONFIGURED, 'This Telegram destination has no chat: connect the chat again', false);
      const content = await pushContent(deps, ctx);
      // A test send has nothing to act on, nor an alert (its occurrence has not come yet).
      const tokens = ctx.test || ctx.alert ? {} : await actionTokensFor(deps, { deliveryId: ctx.deliveryId, reminderId: ctx.reminder.id, occurrenceUtc: ctx.occurrenceUtc });
      const { result } = await telegramCall(client, telegram, 'sendMessage', { chat_id: chatId, ...telegramMessage(content, tokens) }, 'sending the message', ctx.signal);
      // The bot's token is the administrator's to fix: say so where they look (never the token itself).
      if (!result.ok && result.code === TELEGRAM_CODES.UNAUTHORIZED) deps.log.warn({ code: result.code, status: result.httpStatus }, 'Telegram refused TELEGRAM_BOT_TOKEN');
      return result;
    },
    close: () => client.close(),
  };
}
