/**
 * The mixed API load of bench/mixed.ts, shared with bench/scale-out.ts: accounts with reminders
 * created through the API, then connections sending 60% list, 15% get one, 5% account, 8% update,
 * 6% pause/resume and 6% create+delete. Several servers: the connections are spread over them
 * round-robin (any instance answers any account).
 */
import { Pool } from 'undici';

export const ACCOUNTS = 200;
export const PER_ACCOUNT = 20;
export const DUE_PER_ACCOUNT = 5;
export const CONNECTIONS = 50;

export interface Account {
  auth: Record<string, string>;
  ids: string[];
  paused: Set<string>;
}

export type Call = (method: string, p: string, auth: Record<string, string>, body?: unknown) => Promise<{ status: number; body: any }>;

const json = { 'content-type': 'application/json' };

/** An HTTP client with `connections` keep-alive connections to one server. */
export function caller(url: string, connections: number): { call: Call; close(): Promise<void> } {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const call: Call = async (method, p, auth, body) => {
    const res = await pool.request({ path: p, method: method as 'GET', headers: body === undefined ? auth : { ...auth, ...json }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? (JSON.parse(text) as any) : null };
  };
  return { call, close: () => pool.close() };
}

/**
 * `ACCOUNTS` accounts (registered and logged in) with `PER_ACCOUNT - DUE_PER_ACCOUNT` reminders
 * each, far in the future, with a webhook to `${sinkUrl}/never`. `calls` round-robin by worker.
 */
export async function createAccounts(calls: Call[], sinkUrl: string, prefix = 'mixed'): Promise<Account[]> {
  const accounts: Account[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      const call = calls[w % calls.length]!;
      for (let i = w; i < ACCOUNTS; i += 8) {
        const creds = { email: `${prefix}${i}@example.com`, username: `${prefix}${i}`, password: 'mixed-bench-password', timezone: i % 2 ? 'Europe/Paris' : 'America/New_York' };
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
            destinations: [{ type: 'webhook', metadata: { url: `${sinkUrl}/never`, platform: 'generic' } }],
          });
          if (r.status !== 201) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
          ids.push(r.body.id);
        }
        accounts[i] = { auth, ids, paused: new Set() };
      }
    }),
  );
  return accounts;
}

export interface LoadFigures {
  /** Every request's latency in ms, sorted. */
  latencies: number[];
  byOp: Map<string, number>;
  errors5xx: number;
  errors4xx: number;
  elapsedSeconds: number;
}

/** `connections` loops of random operations for `seconds`; connection c talks to `calls[c % calls.length]`. */
export async function mixedLoad(calls: Call[], accounts: Account[], seconds: number, sinkUrl: string, connections = CONNECTIONS): Promise<LoadFigures> {
  const latencies: number[] = [];
  const byOp = new Map<string, number>();
  let errors5xx = 0;
  let errors4xx = 0;
  const end = Date.now() + seconds * 1000;
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
  async function one(call: Call) {
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
      res = await call('PUT', `/api/reminders/${id}`, a.auth, { date: '2031-03-01', time: '09:00', message: `Edited ${Date.now()}`, recurrence: 'DAILY', destinations: [{ type: 'webhook', metadata: { url: `${sinkUrl}/never`, platform: 'generic' } }] });
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
    Array.from({ length: connections }, async (_, c) => {
      const call = calls[c % calls.length]!;
      while (Date.now() < end) await one(call);
    }),
  );
  const elapsedSeconds = (Date.now() - loadStart) / 1000;
  latencies.sort((x, y) => x - y);
  return { latencies, byOp, errors5xx, errors4xx, elapsedSeconds };
}
