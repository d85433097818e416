/**
 * What a reminder looks like in Telegram (sendMessage with `parse_mode: "HTML"`): the title in
 * bold, the reminder's text escaped (Telegram's HTML mode needs `<`, `>`, `&` as entities, and `"`
 * inside an attribute), a link to the reminder's page, and an inline keyboard Snooze 10 min /
 * Tomorrow / Done whose callback_data are references to the delivery's action tokens
 * (server/lib/action-token.ts: 46 bytes, under the 64 Telegram allows). Pure.
 */
import { actionTokenReference, type LinkAction } from '../../lib/action-token.ts';
import { nt } from '../../reminders/action-page.ts';
import type { PushContent } from '../push-common/notification.ts';

/** A message is at most 4096 characters after entity parsing: the reminder's text is cut well below. */
export const MAX_TELEGRAM_TEXT = 3500;

export const escapeTelegramHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export interface InlineButton {
  text: string;
  callback_data: string;
}

/** The sendMessage body of a reminder (without chat_id); `tokens` are the delivery's action tokens, none for a test send. */
export function telegramMessage(content: Pick<PushContent, 'language' | 'title' | 'message' | 'click'>, tokens: Partial<Record<LinkAction, string>>): Record<string, unknown> {
  const message = Array.from(content.message).slice(0, MAX_TELEGRAM_TEXT).join('');
  const open = nt(content.language, 'push.open');
  const text = `<b>${escapeTelegramHtml(content.title)}</b>\n${escapeTelegramHtml(message)}${content.click ? `\n\n<a href="${escapeTelegramHtml(content.click)}">${escapeTelegramHtml(open)}</a>` : ''}`;
  const buttons: InlineButton[] = (['snooze10', 'tomorrow', 'done'] as const)
    .filter((action) => tokens[action])
    .map((action) => ({ text: nt(content.language, `action.${action}`), callback_data: actionTokenReference(tokens[action]!) }));
  return {
    text,
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
    ...(buttons.length ? { reply_markup: { inline_keyboard: [buttons] } } : {}),
  };
}
