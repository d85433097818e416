/**
 * One call to the administrator's homeserver (Matrix Client-Server API, /_matrix/client/v3) as the
 * bot: `Authorization: Bearer <MATRIX_ACCESS_TOKEN>`, through push-common's SSRF-guarded client,
 * so the homeserver's address is checked after DNS at every request. The token goes in that header
 * and nowhere else (never in a URL, a message or a log).
 */
import type { MatrixConfig } from '../../config.ts';
import type { SendResult } from '../../scheduler/types.ts';
import { resultOfNetworkError } from '../push-common/codes.ts';
import type { PushClient } from '../push-common/http.ts';
import { matrixResult } from './answers.ts';

export const MATRIX_USER_AGENT = 'Chime-Notifications/1.0';

export interface MatrixCall {
  result: SendResult;
  /** The answer's JSON object on a success, else null. */
  json: Record<string, unknown> | null;
}

export async function matrixCall(
  client: PushClient,
  matrix: MatrixConfig,
  request: { method: 'GET' | 'POST' | 'PUT'; path: string; body?: unknown; what: string },
  signal?: AbortSignal,
): Promise<MatrixCall> {
  const url = new URL(`${matrix.homeserverUrl}${request.path}`);
  const headers: Record<string, string> = { authorization: `Bearer ${matrix.accessToken}`, accept: 'application/json', 'user-agent': MATRIX_USER_AGENT };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const answer = await client.send(url, { method: request.method, headers, ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}) }, signal);
    const result = matrixResult(answer, url.host, request.what);
    let json: Record<string, unknown> | null = null;
    if (result.ok) {
      try {
        const parsed = JSON.parse(answer.text) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
      } catch {
        /* a success without a body we can read */
      }
    }
    return { result, json };
  } catch (err) {
    return { result: resultOfNetworkError('MATRIX', err, url.host), json: null };
  }
}

/** A path segment: room ids and aliases carry `!`, `#` and `:`, which must be escaped there. */
export const segment = (value: string) => encodeURIComponent(value);
