/**
 * One HTTP request to a push service (ntfy, Gotify, Pushover) through the SSRF-guarded agent of
 * the webhooks (server/net/ssrf-guard.ts): a self-hosted server's address is checked after DNS,
 * at every send. The answer is read only as far as a short error text; every failure is data.
 */
import { request } from 'undici';
import { createGuardedAgent, type GuardOptions } from '../../net/ssrf-guard.ts';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Enough of an error answer to quote its reason; a service never needs more for a push. */
const MAX_ANSWER_BYTES = 8 * 1024;

export interface PushAnswer {
  status: number;
  retryAfter: string | undefined;
  /** The first 8 KB of the answer's body, as text. */
  text: string;
}

export interface PushClient {
  /** Resolves to the answer, or rejects with the network error (undici's, or ForbiddenTargetError). */
  send(url: URL, init: { method: 'GET' | 'POST' | 'PUT'; headers: Record<string, string>; body?: string | Buffer }, signal?: AbortSignal): Promise<PushAnswer>;
  readonly timeoutMs: number;
  close(): Promise<void>;
}

export interface PushClientOptions {
  allowPrivateTargets: boolean;
  timeoutMs?: number;
  lookup?: GuardOptions['lookup'];
  /** How much of an answer is kept (8 KB by default): a service whose successes Chime reads (Matrix's /sync) may need more. */
  maxAnswerBytes?: number;
}

async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < max) chunks.push(chunk.subarray(0, max - size));
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createPushClient(options: PushClientOptions): PushClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agent = createGuardedAgent({
    allowPrivateTargets: options.allowPrivateTargets,
    connectTimeoutMs: timeoutMs,
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    connectionsPerOrigin: 8,
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  return {
    timeoutMs,
    async send(url, init, signal) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const res = await request(url, {
        dispatcher: agent,
        method: init.method,
        headers: init.headers,
        ...(init.body !== undefined ? { body: init.body } : {}),
        // undici follows no redirect without its redirect interceptor: a 3xx is an answer like any other.
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      });
      const retryAfter = res.headers['retry-after'];
      return { status: res.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, text: await readCapped(res.body, options.maxAnswerBytes ?? MAX_ANSWER_BYTES) };
    },
    async close() {
      await agent.close().catch(() => agent.destroy());
    },
  };
}
