/**
 * One Bot API call (core.telegram.org/bots/api "Making requests"): `POST <api>/bot<token>/<method>`
 * with a JSON body, through push-common's SSRF-guarded client (TELEGRAM_API_URL may point at a
 * self-hosted Bot API server). The token is part of the address: the URL is never logged nor put
 * in a message (results name "Telegram", not the host and path).
 */
import type { TelegramConfig } from '../../config.ts';
import type { SendResult } from '../../scheduler/types.ts';
import { resultOfNetworkError } from '../push-common/codes.ts';
import type { PushClient } from '../push-common/http.ts';
import { telegramResult } from './answers.ts';

export const TELEGRAM_USER_AGENT = 'Chime-Notifications/1.0';

export interface TelegramCall {
  result: SendResult;
  /** The answer's `result` on a success, else null. */
  value: unknown;
}

export async function telegramCall(
  client: PushClient,
  telegram: TelegramConfig,
  method: string,
  body: Record<string, unknown>,
  what: string,
  signal?: AbortSignal,
): Promise<TelegramCall> {
  const url = new URL(`${telegram.apiUrl}/bot${telegram.botToken}/${method}`);
  try {
    const answer = await client.send(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': TELEGRAM_USER_AGENT }, body: JSON.stringify(body) },
      signal,
    );
    const result = telegramResult(answer, what);
    let value: unknown = null;
    if (result.ok) {
      try {
        const parsed = JSON.parse(answer.text) as { ok?: unknown; result?: unknown };
        value = parsed.result ?? null;
      } catch {
        /* a success without a body we can read */
      }
    }
    return { result, value };
  } catch (err) {
    // undici's errors may quote the URL: keep only what the push codes read.
    const failure = resultOfNetworkError('TELEGRAM', err, 'Telegram');
    return { result: failure, value: null };
  }
}
