import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, RecurrenceType } from '../../server/db/database.ts';
import { instantToDateTime } from '../../server/time/zoned.ts';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { isForbiddenWebhookPort } from '../../server/net/address-policy.ts';

export interface SinkRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  receivedAt: number;
}

export interface SinkReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface WebhookSink {
  url: string;
  port: number;
  requests: SinkRequest[];
  /** How the next requests are answered: a fixed reply or a function of the request (default 200). */
  reply(how: SinkReply | ((req: SinkRequest, index: number) => SinkReply)): void;
  /** Resolves when at least `count` requests arrived (rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<SinkRequest[]>;
  /**
   * Resolves with the requests that `match` when there are at least `count` of them. Counting
   * "one more than now" instead races the server: a delivery made while the test awaited a start
   * is already in `requests` when the count is taken, and the wait is then for a request that
   * never comes.
   */
  waitForMatching(match: (req: SinkRequest) => boolean, count?: number, timeoutMs?: number): Promise<SinkRequest[]>;
  close(): Promise<void>;
}

/** A tiny HTTP server on 127.0.0.1 that records every webhook it receives. */
export async function startWebhookSink(): Promise<WebhookSink> {
  const requests: SinkRequest[] = [];
  let how: SinkReply | ((req: SinkRequest, index: number) => SinkReply) = { status: 200 };
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const pending = new Set<{ res: ServerResponse; timer: NodeJS.Timeout }>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      const record: SinkRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, receivedAt: Date.now() };
      const index = requests.length;
      requests.push(record);
      for (const w of [...waiters]) {
        if (w.ready()) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      const r = typeof how === 'function' ? how(record, index) : how;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'text/plain', ...r.headers });
        res.end(r.body ?? 'ok');
      };
      if (r.delayMs) {
        const entry = { res, timer: setTimeout(() => { pending.delete(entry); send(); }, r.delayMs) };
        pending.add(entry);
      } else send();
    });
  });
  const waitUntil = (ready: () => boolean, timeoutMs: number, failure: () => string) => {
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(failure()));
      }, timeoutMs);
      waiters.push(waiter);
    });
  };
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    reply(next) {
      how = next;
    },
    waitFor(count, timeoutMs = 5000) {
      return waitUntil(() => requests.length >= count, timeoutMs, () => `sink got ${requests.length} of ${count} requests in ${timeoutMs} ms`).then(() => requests);
    },
    waitForMatching(match, count = 1, timeoutMs = 5000) {
      const matching = () => requests.filter(match);
      return waitUntil(() => matching().length >= count, timeoutMs, () => `sink got ${matching().length} of ${count} matching requests (${requests.length} in all) in ${timeoutMs} ms`).then(matching);
    },
    async close() {
      for (const p of pending) clearTimeout(p.timer);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback URL where nothing listens: connecting is refused. A closed sink's port is no good for
 * this: tests running in parallel are given ports from the same ephemeral range (32768-60999 on
 * Linux), and one took a closed sink's port and answered 404 in a CI run. Ports above that range
 * are never handed out by listen(0); one that refuses a connection now stays refused.
 */
export async function refusedUrl(): Promise<string> {
  const refuses = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
  for (let port = 65_000; port > 61_000; port--) {
    if (!isForbiddenWebhookPort(port) && (await refuses(port))) return `http://127.0.0.1:${port}`;
  }
  throw new Error('no refusing port found above the ephemeral range');
}

// ---------------------------------------------------------------------------------------------
// Row fixtures for delivery tests: reminders are written straight into the database so the
// scheduler can be tested without going through the reminders API.


export async function seedAccount(db: Kysely<Database>, overrides: Partial<Omit<Database['accounts'], 'list_version' | 'disabled_at'>> = {}) {
  const now = new Date().toISOString();
  const id = randomUUID();
  await db
    .insertInto('accounts')
    .values({ id, email: `${id}@example.com`, email_normalized: `${id}@example.com`, username: `u${id.slice(0, 8)}`, timezone: 'UTC', locale: null, created_at: now, updated_at: now, ...overrides })
    .execute();
  return id;
}

export interface SeedReminder {
  accountId: string;
  /** The anchor (remind_at_utc); next fire defaults to it. */
  at: Date | number;
  recurrence?: RecurrenceType | 'CUSTOM';
  /** The rule of a CUSTOM reminder. */
  rrule?: string;
  /** Skipped occurrences. */
  exceptions?: Array<Date | number>;
  message?: string;
  timezone?: string;
  nextFire?: Date | number | null;
  nextOccurrence?: Date | number | null;
  snoozedAt?: Date | number | null;
  paused?: boolean;
  destinations?: { type?: 'webhook' | 'discord_dm' | 'discord_channel'; url?: string; platform?: 'generic' | 'discord' | 'slack'; username?: string; metadata?: Record<string, unknown>; secret?: string | null }[];
}

const isoOf = (v: Date | number) => new Date(v).toISOString();

/** The wall clock a seeded anchor instant reads in its zone: what the reminder stores. */
function localOf(atIso: string, timeZone: string) {
  const { date, time } = instantToDateTime(Date.parse(atIso), timeZone);
  return { local_date: date, local_time: time };
}

export async function seedReminder(db: Kysely<Database>, r: SeedReminder) {
  const now = new Date().toISOString();
  const id = randomUUID();
  const at = isoOf(r.at);
  const nextFire = r.nextFire === undefined ? at : r.nextFire === null ? null : isoOf(r.nextFire);
  const nextOccurrence = r.nextOccurrence === undefined ? nextFire : r.nextOccurrence === null ? null : isoOf(r.nextOccurrence);
  // One transaction, as the API writes them: a running scheduler never sees a reminder without its destinations.
  const destinations: { id: string; secret: string | null }[] = [];
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('reminders')
      .values({
        id,
        account_id: r.accountId,
        message: r.message ?? 'Take out the bins',
        ...localOf(at, r.timezone ?? 'UTC'),
        remind_at_utc: at,
        timezone: r.timezone ?? 'UTC',
        recurrence_type: r.recurrence ?? 'ONCE',
        rrule: r.rrule ?? null,
        exceptions: JSON.stringify((r.exceptions ?? []).map(isoOf)),
        is_paused: r.paused ? 1 : 0,
        snoozed_at_utc: r.snoozedAt ? isoOf(r.snoozedAt) : null,
        next_fire_utc: nextFire,
        next_occurrence_utc: nextOccurrence,
        last_fired_at: null,
        completed_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    let position = 0;
    for (const d of r.destinations ?? []) {
      const type = d.type ?? 'webhook';
      const destId = randomUUID();
      const secret = type === 'webhook' ? (d.secret === undefined ? `whsec_${randomBytes(32).toString('base64')}` : d.secret) : null;
      const metadata = d.metadata ?? (type === 'webhook' ? { url: d.url, platform: d.platform ?? 'generic', ...(d.username ? { username: d.username } : {}) } : {});
      await trx
        .insertInto('destinations')
        .values({ id: destId, reminder_id: id, type, metadata: JSON.stringify(metadata), secret, position: position++, disabled_at: null, disabled_reason: null, created_at: now })
        .execute();
      destinations.push({ id: destId, secret });
    }
  });
  return { id, destinations };
}

/** Independent Standard Webhooks verification (not the server's code). */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return sig.split(' ').some((s) => s === `v1,${expected}`);
}
