// Runs on PostgreSQL only: what only PostgreSQL has to prove (vitest.config.ts).
/**
 * What only PostgreSQL has to prove (project `postgres`): the migrations build the same schema as
 * on SQLite, numbers come back as numbers, transactions run at READ COMMITTED, and caches stay
 * correct when another instance writes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { createDatabase, type DatabaseHandle } from '../../../../server/db/connection.ts';
import { migrateToLatest } from '../../../../server/db/migrate.ts';
import { isClockOff, measureClockSkew } from '../../../../server/lib/clock-skew.ts';
import { readPostgresClock } from '../../../../server/repositories/database-clock.ts';
import pg from 'pg';
import { createDueReminder, expectBoundedBusyAnswer, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { createPostgresDatabase, dropPostgresDatabase, onPostgres } from '../../../helpers/test-database.ts';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

let dir: string;
beforeAll(() => {
  if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
  dir = mkdtempSync(path.join(tmpdir(), 'chime-pg-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the same migrations on both databases', () => {
  let url: string;
  let pg: DatabaseHandle;
  let lite: DatabaseHandle;
  beforeAll(async () => {
    url = await createPostgresDatabase();
    pg = createDatabase(url);
    lite = createDatabase(path.join(dir, 'schema.db'));
    await migrateToLatest(pg.db);
    await migrateToLatest(lite.db);
  });
  afterAll(async () => {
    await pg?.db.destroy();
    await lite?.db.destroy();
    if (url) await dropPostgresDatabase(url);
  });

  it('create the same tables with the same columns and nullability', async () => {
    // SQLite lets a text PRIMARY KEY hold NULL (a quirk it keeps for compatibility); PostgreSQL
    // does not, and Chime never writes one. Primary key columns are compared as NOT NULL.
    const sqliteFile = new SQLite(path.join(dir, 'schema.db'), { readonly: true });
    const isSqlitePk = (table: string, column: string) =>
      (sqliteFile.prepare(`select name from pragma_table_info(?) where pk > 0`).pluck().all(table) as string[]).includes(column);
    const shape = async (h: DatabaseHandle) =>
      Object.fromEntries(
        (await h.db.introspection.getTables())
          .filter((t) => !t.name.startsWith('kysely_'))
          .map((t) => [t.name, t.columns.map((c) => `${c.name}${c.isNullable && !(h === lite && isSqlitePk(t.name, c.name)) ? '?' : ''}`).sort()]),
      );
    const onPg = await shape(pg);
    expect(Object.keys(onPg).sort()).toEqual(Object.keys(await shape(lite)).sort());
    expect(onPg).toEqual(await shape(lite));
    sqliteFile.close();
  });

  it('create the same indexes, partial ones included', async () => {
    const sqliteFile = new SQLite(path.join(dir, 'schema.db'), { readonly: true });
    const onSqlite = (sqliteFile.prepare("select name from sqlite_master where type = 'index' and sql is not null").pluck().all() as string[]).sort();
    sqliteFile.close();
    // Primary keys are indexes of their own on PostgreSQL; SQLite's are implicit (sql is null).
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select c.relname as indexname, pg_get_indexdef(i.indexrelid) as indexdef
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not i.indisprimary`.execute(pg.db);
    const named = rows.filter((r) => !r.indexname.startsWith('kysely_')).map((r) => r.indexname);
    expect(named.sort()).toEqual(onSqlite);
    const due = rows.find((r) => r.indexname === 'reminders_due_idx')!.indexdef;
    expect(due).toMatch(/WHERE \(\(next_fire_utc IS NOT NULL\) AND \(is_paused = 0\)\)/);
  });

  it('number autoincrement ids and counts as JS numbers', async () => {
    const now = new Date().toISOString();
    await pg.db.insertInto('accounts').values({ id: 'a1', email: null, email_normalized: null, username: 'n', timezone: 'UTC', locale: null, created_at: now, updated_at: now }).execute();
    const first = await pg.db.insertInto('email_sends').values({ account_id: 'a1', kind: 'reminder', created_at: now }).returning('id').executeTakeFirstOrThrow();
    const second = await pg.db.insertInto('email_sends').values({ account_id: 'a1', kind: 'reminder', created_at: now }).returning('id').executeTakeFirstOrThrow();
    expect(typeof first.id).toBe('number');
    expect(second.id).toBe(first.id + 1);
    const { n } = await pg.db.selectFrom('email_sends').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(n).toBe(2);
  });

  it('run transactions at READ COMMITTED: read-then-writes that need more take their own lock (postgres-races.test.ts)', async () => {
    const level = await pg.db.transaction().execute(async (trx) => (await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(trx)).rows[0]!.level);
    expect(level).toBe('read committed');
  });

  it('move the change token when another connection commits, and only then', async () => {
    const other = createDatabase(url);
    try {
      const before = await pg.freshChangeToken();
      const accountBefore = await pg.accountChangeToken('a1');
      expect(await pg.freshChangeToken()).toBe(before);
      await other.db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ username: 'changed' }).where('id', '=', 'a1').execute();
        // Not committed: a cache checking now must still find its copy current.
        expect(await pg.accountChangeToken('a1')).toBe(accountBefore);
      });
      // Committed and acknowledged: the very next token has moved, with no wait.
      expect(await pg.freshChangeToken()).not.toBe(before);
      expect(await pg.accountChangeToken('a1')).not.toBe(accountBefore);
    } finally {
      await other.db.destroy();
    }
  });

  it('tell how far this machine\'s clock is off the database server\'s', async () => {
    const read = () => readPostgresClock(pg.db);
    const inSync = await measureClockSkew(read);
    // The same machine: off by no more than the round trip.
    expect(Math.abs(inSync.skewMs)).toBeLessThanOrEqual(inSync.roundTripMs / 2 + 50);
    expect(isClockOff(inSync)).toBe(false);
    // A machine 5 s ahead, and one 3 s behind.
    const ahead = await measureClockSkew(read, () => Date.now() + 5000);
    expect(ahead.skewMs).toBeGreaterThan(4900);
    expect(ahead.skewMs).toBeLessThan(5100);
    expect(isClockOff(ahead)).toBe(true);
    const behind = await measureClockSkew(read, () => Date.now() - 3000);
    expect(behind.skewMs).toBeLessThan(-2900);
    expect(isClockOff(behind)).toBe(true);
  });

  it('wakes a watcher when another instance commits a write (LISTEN/NOTIFY), not before the commit', async () => {
    const other = createDatabase(url);
    let woken = 0;
    const unwatch = pg.watchChanges(() => woken++);
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((r) => setTimeout(r, 5));
    };
    try {
      await until(() => woken > 0); // LISTEN is in place (writes made before it are not missed: it wakes once)
      const before = woken;
      await other.db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ username: 'in a transaction' }).where('id', '=', 'a1').execute();
        // Not committed yet: nobody may be told (they would read the old row and sleep again).
        await new Promise((r) => setTimeout(r, 200));
        expect(woken).toBe(before);
      });
      await until(() => woken > before);
    } finally {
      unwatch();
      await other.db.destroy();
    }
  });
});

describe('two instances on one database', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    // Same folder, so the same database (test-database.ts); neither runs the scheduler loop.
    a = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
    b = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a cached list on one instance shows what the other wrote, at once', async () => {
    const user = await signUp(a.url);
    const body = { date: '2031-05-01', time: '09:00', message: 'first', recurrence: 'DAILY', destinations: [] };
    const created = await user.api.post('/api/reminders', body);
    expect(created.status).toBe(201);
    const onA = (await user.api.get('/api/reminders')).body;
    expect(onA.map((r: { message: string }) => r.message)).toEqual(['first']);
    // The same session on the other instance (sessions are in the shared database).
    const put = await fetch(`${b.url}/api/reminders/${created.body.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ ...body, message: 'edited on b' }),
    });
    expect(put.status).toBe(200);
    expect((await user.api.get('/api/reminders')).body[0].message).toBe('edited on b');
  });

  it('answers /healthz ok', async () => {
    const res = await fetch(`${a.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('PostgreSQL out of reach', () => {
  it('answers DatabaseBusyError (503 DATABASE_BUSY with Retry-After), not an internal error', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const down = createDatabase('postgres://chime:chime@127.0.0.1:1/chime');
    try {
      await expect(down.db.selectFrom('accounts').select('id').execute()).rejects.toMatchObject({ code: 'DATABASE_BUSY' });
      expect(await down.probe()).toBe(false);
    } finally {
      await down.db.destroy();
    }
  });
});

describe('a lock held by another session (an administrator in psql)', () => {
  let server: TestServer;
  let sink: WebhookSink;
  beforeAll(async () => {
    sink = await startWebhookSink();
    server = await startTestServer({ dir });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('answers 503 DATABASE_BUSY after a bounded wait, not a request stuck until it is released; what fell due is delivered after', async () => {
    const user = await signUp(server.url, { timezone: 'UTC' });
    const due = new Date(Date.now() + 1500);
    await createDueReminder(user.api, due, `${sink.url}/hook`, 'Due while locked');

    const admin = new pg.Client({ connectionString: server.config.databaseUrl });
    await admin.connect();
    await admin.query('begin');
    await admin.query('lock table reminders in access exclusive mode');
    try {
      const startedAt = performance.now();
      const res = await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'Blocked', destinations: [] });
      expectBoundedBusyAnswer(res, performance.now() - startedAt);
      expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ status: 'degraded' });
      // Due meanwhile: the claim waits for the table too, gives up, and tries again.
      await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now()) + 500));
      expect(sink.requests).toHaveLength(0);
    } finally {
      await admin.query('commit');
      await admin.end();
    }
    const [delivered] = await sink.waitFor(1, 10_000);
    expect(delivered!.json.message).toBe('Due while locked');
    expect((await user.api.post('/api/reminders', { date: '2031-01-01', time: '09:00', message: 'After', destinations: [] })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.requests).toHaveLength(1);
  }, 30_000);

  it('a delivery prepared before the lock is not left leased to nobody when reading what to send gives up', async () => {
    const user = await signUp(server.url, { timezone: 'UTC' });
    const sentBefore = sink.requests.length;
    // A whole second: the reminder's time is given to the second.
    const due = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    const { id } = await createDueReminder(user.api, due, `${sink.url}/prepared`, 'Prepared before the lock');
    const admin = new pg.Client({ connectionString: server.config.databaseUrl });
    // Watches from outside the admin's transaction, where pg_stat_activity would stay as first read.
    const watcher = new pg.Client({ connectionString: server.config.databaseUrl });
    await admin.connect();
    await watcher.connect();
    try {
      // Prepared a second ahead: the delivery waits in the outbox for its instant.
      await expect.poll(async () => (await watcher.query('select count(*)::int as n from deliveries where reminder_id = $1', [id])).rows[0].n, { timeout: 10_000, interval: 50 }).toBe(1);
      await admin.query('begin');
      await admin.query('lock table reminders in access exclusive mode');
      // At its instant the outbox claim leases the row, then reads the reminder's text: the first
      // query that waits for the table from the due instant on is that read, and it gives up at
      // lock_timeout. (pg_stat_activity cuts long query texts: waiters are found in pg_locks.)
      const waitersSinceDue = async () =>
        (
          await watcher.query(
            `select a.pid, a.query_start from pg_locks l join pg_stat_activity a on a.pid = l.pid
              where not l.granted and l.relation = 'reminders'::regclass and a.query_start >= $1`,
            [due],
          )
        ).rows as { pid: number; query_start: Date }[];
      let waiter: { pid: number; query_start: Date } | undefined;
      await expect.poll(async () => (waiter = (await waitersSinceDue())[0]), { timeout: 15_000, interval: 50 }).toBeDefined();
      await expect
        .poll(async () => (await waitersSinceDue()).some((w) => w.pid === waiter!.pid && w.query_start.getTime() === waiter!.query_start.getTime()), { timeout: 10_000, interval: 50 })
        .toBe(false);
      // Its lease went with the failed read.
      expect((await watcher.query('select lease_owner from deliveries where reminder_id = $1', [id])).rows).toEqual([{ lease_owner: null }]);
    } finally {
      await admin.query('commit').catch(() => undefined);
      await admin.end();
      await watcher.end();
    }
    // Once the table is free it goes out at the next try, not when a 30 s lease runs out.
    const delivered = await sink.waitFor(sentBefore + 1, 5_000);
    expect(delivered.slice(sentBefore).map((r) => r.json.message)).toEqual(['Prepared before the lock']);
  }, 30_000);
});

describe('starting with PostgreSQL out of reach', () => {
  it('exits 1 with one line that names the cause, never the password', async () => {
    const root = REPO_ROOT;
    // As `npm start` runs it: the compiled server (tests/helpers/server-build-global-setup.ts).
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, PORT: '0', SERVE_WEB: 'false', DATABASE_URL: 'postgres://chime:s3cret-pw@127.0.0.1:1/chime' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output.trim()).toBe('Chime could not start: Cannot connect to PostgreSQL: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED). Check DATABASE_URL and that the database is running.');
    expect(output).not.toContain('s3cret-pw');
  });
});

describe('DATABASE_URL', () => {
  it('takes a postgres:// URL and refuses one without a database, never echoing the password', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://chime:s3cret@127.0.0.1:5432/chime' }).databaseUrl).toBe('postgres://chime:s3cret@127.0.0.1:5432/chime');
    let message = '';
    try {
      loadConfig({ DATABASE_URL: 'postgresql://chime:s3cret@127.0.0.1:5432/' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('DATABASE_URL names no PostgreSQL database');
    expect(message).not.toContain('s3cret');
  });
});
