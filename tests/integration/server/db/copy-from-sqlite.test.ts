// Runs on PostgreSQL only: the copy from SQLite to PostgreSQL (vitest.config.ts).
/**
 * Moving a deployment from SQLite to PostgreSQL (docs/operations.md "Moving from SQLite to PostgreSQL"): a
 * real server fills a real SQLite file, `npm run admin -- copy-from-sqlite` runs as a real process
 * against a throwaway PostgreSQL database, and a server on PostgreSQL then carries on: the same
 * sessions, reminders, calendar feed, and a delivery that was waiting for its retry.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../server/db/connection.ts';
import { client, signUp, startTestServer } from '../../../helpers/server.ts';
import { waitFor } from '../../../helpers/fake-discord/util.ts';
import { createPostgresDatabase, dropPostgresDatabase, onPostgres } from '../../../helpers/test-database.ts';
import { seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

const ROOT = REPO_ROOT;

type User = Awaited<ReturnType<typeof signUp>>;

function copyCli(file: string, databaseUrl: string) {
  const run = spawnSync('npm', ['run', '--silent', 'admin', '--', 'copy-from-sqlite', file], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * The script `npm run admin` runs (package.json), started directly and without waiting: the
 * refusals run side by side, sparing npm's own start (about a CPU-second) for each.
 */
function adminScript(args: string[], databaseUrl: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/admin.mjs', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/** Every row of a table as SQLite holds them. */
function sqliteRows(file: string, table: string): Record<string, unknown>[] {
  const sqlite = new SQLite(file, { readonly: true });
  try {
    return sqlite.prepare(`select * from "${table}"`).all() as Record<string, unknown>[];
  } finally {
    sqlite.close();
  }
}

/** Rows as comparable text, whatever the order of rows and keys. */
const sortRows = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();

/** DTSTAMP says when the feed was written, which differs between two fetches. */
const withoutStamps = (ics: string) => ics.replace(/^DTSTAMP:.*$/gm, 'DTSTAMP');


let dir: string;
let sqliteFile: string;
let pgUrl: string;
let sink: WebhookSink;
let alice: User;
let bob: User;
let aliceList: unknown;
let feedPath: string;
let feedText: string;
let retrying: { reminderId: string; webhookId: string };
const TABLES = [
  'accounts',
  'identities',
  'sessions',
  'reminders',
  'destinations',
  'deliveries',
  'delivery_attempts',
  'calendar_feeds',
  'password_reset_tokens',
  'email_addresses',
  'email_sends',
  'short_lived_records',
  'rate_windows',
  'attempt_failures',
  'idempotency_keys',
  'access_tokens',
  'known_devices',
  'server_secrets',
];

beforeAll(async () => {
  if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
  dir = mkdtempSync(path.join(tmpdir(), 'chime-copy-'));
  sqliteFile = path.join(dir, 'chime.db');
  sink = await startWebhookSink();
  const source = await startTestServer({ databaseUrl: sqliteFile, dir });
  try {
    source.app.scheduler.setOptions({ retryDelaysMs: [4000], retryJitter: 0, shutdownTimeoutMs: 200 });
    alice = await signUp(source.url, { timezone: 'Europe/Paris' });
    bob = await signUp(source.url, { timezone: 'Asia/Kathmandu' });
    const custom = await alice.api.post('/api/reminders', {
      date: '2030-03-29',
      time: '02:30',
      message: 'Réunion: dernier vendredi du mois',
      recurrence: 'CUSTOM',
      rrule: 'FREQ=MONTHLY;BYDAY=-1FR',
      destinations: [{ type: 'webhook', metadata: { url: sink.url, platform: 'generic' } }],
    });
    expect(custom.status, JSON.stringify(custom.body)).toBe(201);
    expect((await alice.api.post(`/api/reminders/${custom.body.id}/skip`, { occurrence: custom.body.next_fire_utc })).status).toBe(200);
    const paused = await alice.api.post('/api/reminders', { date: '2030-02-28', time: '23:45', message: 'Paused', recurrence: 'MONTHLY' });
    expect((await alice.api.post(`/api/reminders/${paused.body.id}/pause`)).status).toBe(200);
    // Sent with an Idempotency-Key: a retry after the move must still find it.
    const weekly = { date: '2030-07-01', time: '05:45', message: 'Weekly', recurrence: 'WEEKLY' };
    expect((await bob.api.post('/api/reminders', weekly, { 'idempotency-key': 'weekly-1' })).status).toBe(201);
    // A failed sign-in leaves a throttle record, which must survive the move.
    expect((await bob.api.post('/api/auth/login', { email: bob.email, password: 'wrong password!', remember_me: false })).status).toBe(401);

    // One delivery that succeeded, and one that failed once and waits for its retry.
    sink.reply((req) => (req.json && (req.json as { message?: string }).message === 'Retry me' ? { status: 503 } : { status: 200 }));
    await seedReminder(source.app.db, { accountId: alice.id, at: Date.now() - 5, message: 'Sent already', destinations: [{ url: sink.url }] });
    const seeded = await seedReminder(source.app.db, { accountId: alice.id, at: Date.now() - 5, message: 'Retry me', destinations: [{ url: sink.url }] });
    source.app.scheduler.wake();
    await sink.waitFor(2, 10_000);
    await waitFor(
      async () => {
        const rows = await source.app.db.selectFrom('deliveries').select('status').execute();
        return rows.length === 2 && rows.every((r) => r.status !== 'pending');
      },
      10_000,
      'both deliveries recorded',
    );
    retrying = { reminderId: seeded.id, webhookId: sink.requests.find((r) => (r.json as { message?: string }).message === 'Retry me')!.headers['webhook-id'] as string };

    const feed = await bob.api.get('/api/account/calendar-feed');
    feedPath = (feed.body.url as string).replace(source.config.publicUrl, '');
    feedText = await (await fetch(source.url + feedPath)).text();
    expect((await alice.api.post('/api/tokens', { name: 'script', scopes: ['reminders:read'], expires_in_days: 30 })).status).toBe(201);
    aliceList = (await alice.api.get('/api/reminders')).body;
  } finally {
    await source.close();
  }
  // What an older Chime let into SQLite and PostgreSQL cannot store; and rows that name the old process.
  const sqlite = new SQLite(sqliteFile);
  sqlite.prepare("update reminders set message = ? where message = 'Weekly'").run('Weekly\u0000');
  sqlite.prepare("insert into leases (name, owner, expires_at) values ('discord-gateway', 'old-process', '2999-01-01T00:00:00.000Z')").run();
  sqlite.prepare("update deliveries set lease_owner = 'old-process', lease_expires_at = '2999-01-01T00:00:00.000Z' where status = 'retrying'").run();
  sqlite.close();
  pgUrl = await createPostgresDatabase();
}, 120_000);

afterAll(async () => {
  await sink?.close();
  if (pgUrl) await dropPostgresDatabase(pgUrl);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run admin -- copy-from-sqlite', () => {
  it('copies every row as stored, resetting only what named the old process', async () => {
    const run = copyCli(sqliteFile, pgUrl);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ {2}accounts: 2 rows$/m);
    expect(run.stdout).toMatch(/^ {2}reminders: 5 rows \(1 with a NUL character removed: PostgreSQL cannot store it\)$/m);
    expect(run.stdout).toMatch(/^Copied \d+ rows from .* into PostgreSQL in [\d.]+ s\./m);
    expect(run.stdout).not.toContain('chime:chime');

    const pg = createDatabase(pgUrl);
    try {
      for (const table of TABLES) {
        const want = sqliteRows(sqliteFile, table).map((row) => {
          if (table === 'accounts') row.list_version = 0;
          if (table === 'deliveries') Object.assign(row, { lease_owner: null, lease_expires_at: null });
          if (table === 'reminders' && row.message === 'Weekly\u0000') row.message = 'Weekly';
          return row;
        });
        const got = await pg.db.selectFrom(table as 'accounts').selectAll().execute();
        expect(sortRows(got as Record<string, unknown>[]), table).toEqual(sortRows(want));
        if (['accounts', 'sessions', 'reminders', 'destinations', 'deliveries', 'delivery_attempts', 'attempt_failures', 'idempotency_keys', 'access_tokens', 'known_devices'].includes(table)) {
          expect(got.length, table).toBeGreaterThan(0);
        }
      }
      expect(await pg.db.selectFrom('leases').selectAll().execute()).toEqual([]);
      // The next id PostgreSQL gives continues after the copied ones (no duplicate key on the next attempt).
      const copied = await pg.db.selectFrom('delivery_attempts').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      const next = await pg.db.transaction().execute(async (trx) => {
        const { id } = await trx.insertInto('delivery_attempts').values({ ...copied, id: undefined }).returning('id').executeTakeFirstOrThrow();
        await trx.deleteFrom('delivery_attempts').where('id', '=', id).execute();
        return id;
      });
      expect(next).toBe(copied.id + 1);
    } finally {
      await pg.db.destroy();
    }
  });

  it('a server on PostgreSQL carries on: same sessions, reminders and feed; the waiting retry is sent with its webhook-id', async () => {
    sink.requests.length = 0;
    sink.reply({ status: 200 });
    const target = await startTestServer({ databaseUrl: pgUrl, dir });
    try {
      const api = (user: User) => client(target.url, user.token);
      expect((await api(alice).get('/api/reminders')).body).toEqual(aliceList);
      // A create retried across the move answers the reminder it made before, and makes no other.
      const retried = await api(bob).post('/api/reminders', { date: '2030-07-01', time: '05:45', message: 'Weekly', recurrence: 'WEEKLY' }, { 'idempotency-key': 'weekly-1' });
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(((await api(bob).get('/api/reminders')).body as unknown[]).length).toBe(1);
      expect(withoutStamps(await (await fetch(target.url + feedPath)).text())).toBe(withoutStamps(feedText));
      // Passwords moved as hashes: signing in still works.
      const login = await fetch(`${target.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: alice.email, password: alice.password, remember_me: false }),
      });
      expect(login.status).toBe(200);

      const [resent] = await sink.waitFor(1, 15_000);
      expect(resent!.json).toMatchObject({ message: 'Retry me', attempt: 2 });
      expect(resent!.headers['webhook-id']).toBe(retrying.webhookId);
      // The attempt row PostgreSQL numbered itself: its identity continued after the copied ids.
      const attempts = await waitFor(
        async () => {
          const rows = await target.app.db.selectFrom('delivery_attempts').select(['id', 'attempt', 'outcome']).where('reminder_id', '=', retrying.reminderId).orderBy('id').execute();
          return rows.length === 2 ? rows : null;
        },
        10_000,
        'the resent attempt recorded',
      );
      expect(attempts.map((a) => [a.attempt, a.outcome])).toEqual([
        [1, 'retrying'],
        [2, 'delivered'],
      ]);
      const created = await api(bob).post('/api/reminders', { date: '2031-01-01', time: '08:00', message: 'New on PostgreSQL' });
      expect(created.status).toBe(201);
    } finally {
      await target.close();
    }
  });

  it('refuses a PostgreSQL database that already has data, and changes nothing', async () => {
    const pg = createDatabase(pgUrl);
    const count = async (h: DatabaseHandle) => Number((await h.db.selectFrom('reminders').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    try {
      const before = await count(pg);
      const run = copyCli(sqliteFile, pgUrl);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('The PostgreSQL database already has data (table accounts). Copy into a new, empty database.');
      expect(await count(pg)).toBe(before);
    } finally {
      await pg.db.destroy();
    }
  });

  it('refuses what it cannot copy, saying why', async () => {
    const emptyUrl = await createPostgresDatabase();
    try {
      const notChime = path.join(dir, 'notes.db');
      const other = new SQLite(notChime);
      other.exec('create table notes (body text)');
      other.close();
      const text = path.join(dir, 'readme.txt');
      writeFileSync(text, 'not a database at all, just some text that is long enough to have a header');

      const [toSqlite, missing, foreign, garbage] = await Promise.all([
        adminScript(['copy-from-sqlite', sqliteFile], path.join(dir, 'other.db')),
        adminScript(['copy-from-sqlite', path.join(dir, 'nope.db')], emptyUrl),
        adminScript(['copy-from-sqlite', notChime], emptyUrl),
        adminScript(['copy-from-sqlite', text], emptyUrl),
      ]);
      expect(toSqlite.status).toBe(1);
      expect(toSqlite.stderr).toContain('DATABASE_URL names a SQLite file.');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('nope.db does not exist or is not a file.');
      expect(foreign.status).toBe(1);
      expect(foreign.stderr).toContain('notes.db is not a Chime database.');
      expect(sqliteRows(notChime, 'sqlite_master').length).toBe(1);
      expect(garbage.status).toBe(1);
      expect(garbage.stderr).toContain('cannot be read as SQLite');
      expect(readFileSync(text, 'utf8')).toMatch(/^not a database/);

      // Through npm, as the documentation says it: the usage line and its exit code.
      const usage = spawnSync('npm', ['run', '--silent', 'admin', '--', 'copy-from-sqlite'], { cwd: ROOT, encoding: 'utf8' });
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('copy-from-sqlite <sqlite-file>');
    } finally {
      await dropPostgresDatabase(emptyUrl);
    }
  });
});
