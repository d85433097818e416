/**
 * Mixed load: what many users do at once, while deliveries fire. 200 accounts with 20 reminders
 * each; 50 connections send 60% list, 15% get one, 5% account, 8% update, 6% pause/resume and
 * 6% create+delete, while 1,000 reminders (5 per account, webhooks to a sink in another process)
 * fall due within the same minute. Prints the API's requests/s and latency, the 5xx count, and
 * the deliveries' lateness (received at the sink minus due).
 * The issue-12 goals: API >= 2x the first measurement (1,039 req/s) and p99 lateness < 1 s.
 * BENCH_MIXED_DB=postgres runs it on a throwaway PostgreSQL database (BENCH_POSTGRES_URL, a role
 * allowed to CREATE DATABASE), with the server's default pool, as a new user would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { databaseLabel, throwawayDatabase } from './lib/any-database.ts';
import { percentile, startServerProcess } from './lib/server-process.ts';
import { startSinkProcess } from './webhook-sink.ts';

const ACCOUNTS = 200;
const PER_ACCOUNT = 20;
const DUE_PER_ACCOUNT = 5;
const CONNECTIONS = 50;

interface Account {
  auth: Record<string, string>;
  ids: string[];
  paused: Set<string>;
}

const json = { 'content-type': 'application/json' };

export async function run(options: { loadSeconds?: number; port?: number } = {}) {
  const loadSeconds = options.loadSeconds ?? 40;
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-bench-mixed-'));
  const database = await throwawayDatabase(process.env.BENCH_MIXED_DB === 'postgres' ? 'postgres' : 'sqlite', dir);
  const sink = await startSinkProcess();
  try {
    const server = await startServerProcess(
      { DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SERVE_WEB: 'false', LOG_LEVEL: 'warn' },
      options.port ?? 3921,
    );
    const pool = new Pool(server.url, { connections: CONNECTIONS, pipelining: 1 });
    const call = async (method: string, p: string, auth: Record<string, string>, body?: unknown) => {
      const res = await pool.request({ path: p, method: method as 'GET', headers: body === undefined ? auth : { ...auth, ...json }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as any) : null };
    };
    try {
      // Accounts and their reminders (far in the future), through the API like users.
      const accounts: Account[] = [];
      const t0 = Date.now();
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = w; i < ACCOUNTS; i += 8) {
            const creds = { email: `mixed${i}@example.com`, username: `mixed${i}`, password: 'mixed-bench-password', timezone: i % 2 ? 'Europe/Paris' : 'America/New_York' };
            const reg = await call('POST', '/api/auth/register', {}, creds);
            if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
            const login = await call('POST', '/api/auth/login', {}, { email: creds.email, password: creds.password, remember_me: true });
            if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
            const auth = { authorization: `Bearer ${login.body.token}` };
            const ids: string[] = [];
            for (let k = 0; k < PER_ACCOUNT - DUE_PER_ACCOUNT; k++) {
              const r = await call('POST', '/api/reminders', auth, {
                date: '2031-03-01',
                time: '09:00',
                message: `Reminder ${k} of ${i}`,
                recurrence: ['DAILY', 'WEEKLY', 'CUSTOM'][k % 3],
                ...(k % 3 === 2 ? { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR' } : {}),
                destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/never`, platform: 'generic' } }],
              });
              if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
              ids.push(r.body.id);
            }
            accounts[i] = { auth, ids, paused: new Set() };
          }
        }),
      );
      const setupSeconds = (Date.now() - t0) / 1000;

      // 1,000 reminders due within one minute, starting 15 s into the load. On a loaded machine
      // creating them takes longer: BENCH_MIXED_DUE_LEAD_S gives them more time (the load then
      // starts that much later before the due minute).
      const dueStart = Date.now() + Number(process.env.BENCH_MIXED_DUE_LEAD_S || 25) * 1000;
      let n = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = w; i < ACCOUNTS; i += 8) {
            for (let k = 0; k < DUE_PER_ACCOUNT; k++) {
              const due = new Date(dueStart + ((i * DUE_PER_ACCOUNT + k) * 60_000) / (ACCOUNTS * DUE_PER_ACCOUNT));
              const r = await call('POST', '/api/reminders', accounts[i]!.auth, {
                date: due.toISOString().slice(0, 10),
                time: due.toISOString().slice(11, 19),
                timezone: 'UTC',
                message: `Due ${k} of ${i}`,
                destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/hook`, platform: 'generic' } }],
              });
              if (r.status !== 201) throw new Error(`create due: ${r.status} ${JSON.stringify(r.body)}`);
              n++;
            }
          }
        }),
      );
      if (Date.now() > dueStart - 5_000) throw new Error('setup of the due reminders took too long');
      if (process.env.BENCH_MIXED_DUE_LEAD_S) await new Promise((r) => setTimeout(r, Math.max(0, dueStart - 15_000 - Date.now())));

      // The load: from now until loadSeconds, covering the whole due minute.
      const latencies: number[] = [];
      const byOp = new Map<string, number>();
      let errors5xx = 0;
      let errors4xx = 0;
      const end = Date.now() + loadSeconds * 1000;
      const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
      async function one() {
        const a = pick(accounts);
        const id = pick(a.ids);
        const roll = Math.random() * 100;
        let op: string;
        let res: { status: number };
        const started = performance.now();
        if (roll < 60) {
          op = 'list';
          res = await call('GET', '/api/reminders', a.auth);
        } else if (roll < 75) {
          op = 'get';
          res = await call('GET', `/api/reminders/${id}`, a.auth);
        } else if (roll < 80) {
          op = 'account';
          res = await call('GET', '/api/account', a.auth);
        } else if (roll < 88) {
          op = 'update';
          res = await call('PUT', `/api/reminders/${id}`, a.auth, { date: '2031-03-01', time: '09:00', message: `Edited ${Date.now()}`, recurrence: 'DAILY', destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/never`, platform: 'generic' } }] });
        } else if (roll < 94) {
          op = 'pause/resume';
          const paused = a.paused.has(id);
          res = await call('POST', `/api/reminders/${id}/${paused ? 'resume' : 'pause'}`, a.auth, {});
          if (res.status === 200 && paused) a.paused.delete(id);
          else if (res.status === 200) a.paused.add(id);
        } else {
          op = 'create+delete';
          const created = await call('POST', '/api/reminders', a.auth, { date: '2031-05-01', time: '10:00', message: 'Temporary', recurrence: 'ONCE', destinations: [] });
          res = created.status === 201 ? await call('DELETE', `/api/reminders/${created.body.id}`, a.auth) : created;
        }
        latencies.push(performance.now() - started);
        byOp.set(op, (byOp.get(op) ?? 0) + 1);
        if (res.status >= 500) errors5xx++;
        else if (res.status >= 400) errors4xx++;
      }
      const loadStart = Date.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() < end) await one();
        }),
      );
      const elapsed = (Date.now() - loadStart) / 1000;
      const stats = await sink.waitForCount(n, 60_000, 200);
      const receipts = await sink.receipts();
      const lateness = receipts.map(([, , occurrenceAt, receivedAt]) => receivedAt - Date.parse(occurrenceAt)).sort((x, y) => x - y);
      latencies.sort((x, y) => x - y);
      await pool.close();
      return {
        database: databaseLabel(database.url),
        setup_seconds: Math.round(setupSeconds),
        requests: latencies.length,
        req_per_s: Math.round(latencies.length / elapsed),
        api_p50_ms: Math.round(percentile(latencies, 50) * 10) / 10,
        api_p99_ms: Math.round(percentile(latencies, 99) * 10) / 10,
        api_5xx: errors5xx,
        api_4xx: errors4xx,
        ops: Object.fromEntries(byOp),
        delivered: stats.unique_ids,
        duplicates: stats.duplicate_ids + stats.duplicate_occurrences,
        lateness_p50_ms: percentile(lateness, 50),
        lateness_p99_ms: percentile(lateness, 99),
        lateness_max_ms: lateness.at(-1) ?? NaN,
        rss_mb: server.rssMb(),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await sink.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  const { ops, ...rest } = figures;
  console.log(`Mixed load: ${ACCOUNTS} accounts x ${PER_ACCOUNT} reminders, ${CONNECTIONS} connections, 1,000 deliveries due within one minute during the load`);
  console.table(rest);
  console.log('requests per operation:', ops);
}
