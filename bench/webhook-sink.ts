/**
 * A webhook sink in its own process for the scheduler benchmarks: counts what arrives, when, and
 * which webhook-ids (or occurrences) came more than once. Controlled over a tiny HTTP API on the
 * same port (paths starting with /_sink/), so the process under test and the sink never share a
 * CPU-bound event loop with the benchmark driver.
 *
 *   GET  /_sink/stats     -> { received, unique_ids, duplicate_ids, duplicate_occurrences, first_at, last_at }
 *   GET  /_sink/receipts  -> [[webhook_id, reminder_id, occurrence_at, first_received_at, count], ...]
 *   POST /_sink/reset     -> clears everything
 *   POST /_sink/config    -> { status?, delay_ms? } how webhooks are answered
 *   GET  /_sink/first-after?at=MS -> { at } the first arrival at or after that instant (or null)
 *
 * Standalone: `tsx bench/webhook-sink.ts [port] [hosts]` prints `{"port": N, "ports": [...]}` on its
 * first line. With hosts > 1 it listens on that many ports (each a webhook host of its own to the
 * sender, which limits per host:port), all counted together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const OK_HEADERS = { 'content-length': '0' };

interface Receipt {
  reminderId: string;
  occurrenceAt: string;
  firstAt: number;
  count: number;
}

export interface SinkStats {
  received: number;
  unique_ids: number;
  /** Webhook-ids received more than once (an in-flight resend after a crash). */
  duplicate_ids: number;
  /** (reminder, occurrence) pairs received under more than one webhook-id: a double claim. */
  duplicate_occurrences: number;
  first_at: number | null;
  last_at: number | null;
}

export type ReceiptRow = [webhookId: string, reminderId: string, occurrenceAt: string, firstReceivedAt: number, count: number];

function field(body: string, marker: string): string {
  const at = body.indexOf(marker);
  if (at < 0) return '';
  const start = at + marker.length;
  const end = body.indexOf('"', start);
  return end < 0 ? '' : body.slice(start, end);
}

export async function serveSink(port = 0, hosts = 1): Promise<number[]> {
  const byId = new Map<string, Receipt>();
  const idsByOccurrence = new Map<string, string | string[]>();
  let received = 0;
  let duplicateIds = 0;
  let duplicateOccurrences = 0;
  let firstAt: number | null = null;
  let lastAt: number | null = null;
  /** Every arrival instant, in order (time to the first resend after a restart). */
  const arrivals: number[] = [];
  let status = 200;
  let delayMs = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (url.startsWith('/_sink/')) {
        res.setHeader('content-type', 'application/json');
        if (url === '/_sink/stats') {
          const stats: SinkStats = { received, unique_ids: byId.size, duplicate_ids: duplicateIds, duplicate_occurrences: duplicateOccurrences, first_at: firstAt, last_at: lastAt };
          return res.end(JSON.stringify(stats));
        }
        if (url === '/_sink/receipts') {
          const rows: ReceiptRow[] = [];
          for (const [id, r] of byId) rows.push([id, r.reminderId, r.occurrenceAt, r.firstAt, r.count]);
          return res.end(JSON.stringify(rows));
        }
        if (url.startsWith('/_sink/first-after')) {
          const after = Number(new URL(url, 'http://sink').searchParams.get('at'));
          return res.end(JSON.stringify({ at: arrivals.find((t) => t >= after) ?? null }));
        }
        if (url === '/_sink/reset') {
          byId.clear();
          arrivals.length = 0;
          idsByOccurrence.clear();
          received = duplicateIds = duplicateOccurrences = 0;
          firstAt = lastAt = null;
          return res.end('{"ok":true}');
        }
        if (url === '/_sink/config') {
          const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { status?: number; delay_ms?: number };
          if (body.status) status = body.status;
          if (body.delay_ms !== undefined) delayMs = body.delay_ms;
          return res.end('{"ok":true}');
        }
        res.statusCode = 404;
        return res.end('{}');
      }
      const now = Date.now();
      received += 1;
      arrivals.push(now);
      firstAt ??= now;
      lastAt = now;
      const id = String(req.headers['webhook-id'] ?? '');
      const seen = byId.get(id);
      if (seen) {
        if (seen.count === 1) duplicateIds += 1;
        seen.count += 1;
      } else {
        // Field lookup without a full JSON.parse: the sink must stay faster than what it measures.
        const body = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('latin1');
        const reminderId = field(body, '"reminder_id":"');
        const occurrenceAt = field(body, '"occurrence_at":"');
        byId.set(id, { reminderId, occurrenceAt, firstAt: now, count: 1 });
        const key = `${reminderId}|${occurrenceAt}`;
        const prior = idsByOccurrence.get(key);
        if (prior === undefined) idsByOccurrence.set(key, id);
        else {
          const list = Array.isArray(prior) ? prior : [prior];
          if (list.length === 1) duplicateOccurrences += 1;
          list.push(id);
          idsByOccurrence.set(key, list);
        }
      }
      const answer = () => {
        res.writeHead(status, OK_HEADERS);
        res.end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  };
  const ports: number[] = [];
  for (let i = 0; i < hosts; i++) {
    const server = createServer(handle);
    server.keepAliveTimeout = 60_000;
    ports.push(await new Promise<number>((resolve) => server.listen(i === 0 ? port : 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))));
  }
  return ports;
}

export interface SinkProcess {
  url: string;
  /** One base URL per port (webhook host); urls[0] === url. */
  urls: string[];
  /** The first arrival at or after `atMs` (null: none yet). */
  firstAfter(atMs: number): Promise<number | null>;
  pid: number;
  stats(): Promise<SinkStats>;
  receipts(): Promise<ReceiptRow[]>;
  reset(): Promise<void>;
  configure(options: { status?: number; delay_ms?: number }): Promise<void>;
  /** Resolves when `count` webhooks arrived; rejects after timeoutMs. */
  waitForCount(count: number, timeoutMs: number, pollMs?: number): Promise<SinkStats>;
  stop(): Promise<void>;
}

/** Starts the sink as a separate process (plain node with the tsx loader). */
export async function startSinkProcess(hosts = 1): Promise<SinkProcess> {
  const file = fileURLToPath(import.meta.url);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file, '0', String(hosts)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ports = await new Promise<number[]>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => resolve((JSON.parse(line) as { ports: number[] }).ports));
    child.once('exit', (code) => reject(new Error(`sink exited with ${code}`)));
  });
  const urls = ports.map((p) => `http://127.0.0.1:${p}`);
  const url = urls[0]!;
  const get = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(url + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
    return (await res.json()) as T;
  };
  return {
    url,
    urls,
    firstAfter: async (atMs) => (await get<{ at: number | null }>(`/_sink/first-after?at=${atMs}`)).at,
    pid: child.pid!,
    stats: () => get<SinkStats>('/_sink/stats'),
    receipts: () => get<ReceiptRow[]>('/_sink/receipts'),
    reset: async () => void (await get('/_sink/reset', {})),
    configure: async (options) => void (await get('/_sink/config', options)),
    async waitForCount(count, timeoutMs, pollMs = 100) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const s = await get<SinkStats>('/_sink/stats');
        if (s.unique_ids >= count) return s;
        if (Date.now() > until) throw Object.assign(new Error(`sink got ${s.unique_ids} of ${count} in ${timeoutMs} ms`), { stats: s });
        await new Promise((r) => setTimeout(r, pollMs));
      }
    },
    stop() {
      return new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ports = await serveSink(Number(process.argv[2] ?? 0), Number(process.argv[3] ?? 1));
  process.stdout.write(JSON.stringify({ port: ports[0], ports }) + '\n');
  process.on('SIGTERM', () => process.exit(0));
}
