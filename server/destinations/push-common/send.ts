/** One push send as a result: the request through the client, its answer or network error read per family. */
import type { SendResult } from '../../scheduler/types.ts';
import { type PushFamily, resultOfAnswer, resultOfNetworkError } from './codes.ts';
import type { PushAnswer, PushClient } from './http.ts';

export async function sendPush(
  client: PushClient,
  family: PushFamily,
  url: URL,
  init: { method: 'GET' | 'POST' | 'PUT'; headers: Record<string, string>; body?: string },
  signal: AbortSignal | undefined,
  /** A service whose refusals are not told by status alone (Pushover's 400s) reads its answer here first. */
  read?: (answer: PushAnswer) => SendResult | null,
): Promise<SendResult> {
  try {
    const answer = await client.send(url, init, signal);
    return read?.(answer) ?? resultOfAnswer(family, answer.status, url.host, answer.text, answer.retryAfter);
  } catch (err) {
    return resultOfNetworkError(family, err, url.host);
  }
}
