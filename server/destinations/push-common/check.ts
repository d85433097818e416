/**
 * The check when a push destination is added (POST /api/destinations/check and every save): one
 * request to the service with the given credential, through the SSRF-guarded agent. A refused
 * credential or an unreachable server is refused with PUSH_CHECK_FAILED, the precise send code in
 * `reason` (what the dashboard words) and the service's answer in the message.
 */
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import type { SendResult } from '../../scheduler/types.ts';
import { type PushFamily, resultOfAnswer, resultOfNetworkError } from './codes.ts';
import { createPushClient, type PushAnswer } from './http.ts';

/** A check waits at most this long: the dashboard is waiting. */
const CHECK_TIMEOUT_MS = 8_000;

export async function checkRequest(
  config: Pick<Config, 'webhookAllowPrivateTargets'>,
  family: PushFamily,
  url: URL,
  init: { method: 'GET' | 'POST' | 'PUT'; headers: Record<string, string>; body?: string },
  /** Statuses that mean "this server cannot tell" rather than "refused" (an older server without the endpoint). */
  inconclusive: number[] = [],
  /** A service whose refusals are not told by status alone reads its answer here first. */
  read?: (answer: PushAnswer) => SendResult | null,
): Promise<void> {
  const client = createPushClient({ allowPrivateTargets: config.webhookAllowPrivateTargets, timeoutMs: CHECK_TIMEOUT_MS });
  let result: SendResult;
  try {
    const answer = await client.send(url, init);
    result = inconclusive.includes(answer.status) ? { ok: true } : (read?.(answer) ?? resultOfAnswer(family, answer.status, url.host, answer.text, answer.retryAfter));
  } catch (err) {
    result = resultOfNetworkError(family, err, url.host);
  } finally {
    await client.close();
  }
  if (!result.ok) throw new AppError('PUSH_CHECK_FAILED', result.error, 400, { reason: result.code });
}
