/**
 * Idempotency-Key on the requests that create (docs/api.md "Retrying a create safely"), over real HTTP
 * and, on PostgreSQL too, a real database: a request sent again with the same key answers what the
 * first one created and creates nothing more, even when both race; the same key with another
 * request is refused; keys are per account, live a day, and a dry run does not use one up.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReminder, duplicateReminder } from '../../../../server/reminders/service.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { onPostgres } from '../../../helpers/test-database.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const DAY_MS = 24 * 60 * 60 * 1000;
const key = (name: string) => ({ 'idempotency-key': `${name}-${Math.random().toString(36).slice(2)}` });
const hook = (path: string) => ({ type: 'webhook', metadata: { url: `https://hooks.example.com/${path}`, platform: 'generic' } });
const reminder = (message: string) => ({ message, date: '2031-05-06', time: '09:30', recurrence: 'WEEKLY', timezone: 'Europe/Paris', destinations: [hook(message)] });

describe('Idempotency-Key', () => {
  let server: TestServer;
  let a: User;
  let b: User;

  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
    a = await signUp(server.url, { timezone: 'Europe/Paris' });
    b = await signUp(server.url);
  });
  afterAll(async () => server?.close());

  const messagesOf = async (user: User) => ((await user.api.get('/api/reminders')).body as Array<{ message: string }>).map((r) => r.message).sort();
  const countOf = async (user: User, message: string) => (await messagesOf(user)).filter((m) => m === message).length;

  it('a create sent again with its key answers the same reminder, with its secret, and creates nothing more', async () => {
    const headers = key('create');
    const first = await a.api.post('/api/reminders', reminder('Water the plants'), headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const secret = first.body.destinations[0].secret as string;
    expect(secret).toMatch(/^whsec_/);

    const again = await a.api.post('/api/reminders', reminder('Water the plants'), headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // The first answer may never have arrived: the replay shows the secret it showed.
    expect(again.body.destinations[0].secret).toBe(secret);
    expect(await countOf(a, 'Water the plants')).toBe(1);

    // Without a key, sending twice creates twice (the control).
    expect((await a.api.post('/api/reminders', reminder('No key'))).status).toBe(201);
    expect((await a.api.post('/api/reminders', reminder('No key'))).status).toBe(201);
    expect(await countOf(a, 'No key')).toBe(2);
  });

  it('refuses the same key with another request (422), and creates nothing', async () => {
    const headers = key('reused');
    expect((await a.api.post('/api/reminders', reminder('Call the bank'), headers)).status).toBe(201);
    const other = await a.api.post('/api/reminders', reminder('Call the school'), headers);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'This Idempotency-Key was already used for another request. Send a new key with each new request.', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await countOf(a, 'Call the school')).toBe(0);
    // Nor may a create's key serve a duplicate.
    const source = (await a.api.post('/api/reminders', reminder('Source'))).body.id as string;
    expect((await a.api.post(`/api/reminders/${source}/duplicate`, {}, headers)).body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await countOf(a, 'Source')).toBe(1);
  });

  it('keys are per account: the same key from another account is another key', async () => {
    const headers = key('shared');
    const fromA = await a.api.post('/api/reminders', reminder('Same key'), headers);
    const fromB = await b.api.post('/api/reminders', reminder('Same key'), headers);
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromB.headers.get('idempotent-replayed')).toBeNull();
    expect(fromB.body.id).not.toBe(fromA.body.id);
    expect(await countOf(b, 'Same key')).toBe(1);
    // And B's key never answers A's reminder (nor reveals its secret).
    expect((await b.api.post('/api/reminders', reminder('Same key'), headers)).body.id).toBe(fromB.body.id);
  });

  it('requests racing with one key create one reminder and all answer it', async () => {
    const headers = key('race');
    const answers = await Promise.all(Array.from({ length: 8 }, () => a.api.post('/api/reminders', reminder('Racing'), headers)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    expect(await countOf(a, 'Racing')).toBe(1);
  });

  it('a duplicate sent again answers the same copy, even once its source is deleted', async () => {
    const source = (await a.api.post('/api/reminders', reminder('Copy me'))).body.id as string;
    const headers = key('duplicate');
    const copy = await a.api.post(`/api/reminders/${source}/duplicate`, {}, headers);
    expect(copy.status).toBe(201);
    expect((await a.api.delete(`/api/reminders/${source}`)).status).toBe(200);
    const again = await a.api.post(`/api/reminders/${source}/duplicate`, {}, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(copy.body.id);
    expect(await countOf(a, 'Copy me')).toBe(1);
  });

  it('an import sent again answers the first import and creates nothing more; a dry run does not use the key up', async () => {
    const content = JSON.stringify({ reminders: [reminder('Imported one'), reminder('Imported two'), { ...reminder('Bad row'), time: '25:00' }] });
    const headers = key('import');
    const dry = await a.api.post('/api/reminders/import', { format: 'json', content, dry_run: true, mode: 'valid_only' }, headers);
    expect(dry.body).toMatchObject({ valid: 2, created: 0 });
    const first = await a.api.post('/api/reminders/import', { format: 'json', content, mode: 'valid_only' }, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ valid: 2, created: 2 });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await a.api.post('/api/reminders/import', { format: 'json', content, mode: 'valid_only' }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countOf(a, 'Imported one')).toBe(1);
    expect(await countOf(a, 'Imported two')).toBe(1);
    // Another mode is another request.
    expect((await a.api.post('/api/reminders/import', { format: 'json', content, mode: 'all_or_nothing' }, headers)).status).toBe(422);
  });

  it('refuses a key that is empty, too long or not visible ASCII (400), and creates nothing', async () => {
    for (const bad of ['', 'x'.repeat(256), 'two words', 'clé']) {
      const res = await a.api.call('POST', '/api/reminders', reminder('Bad key'), { 'idempotency-key': bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await countOf(a, 'Bad key')).toBe(0);
    expect((await a.api.post('/api/reminders', reminder('Long key'), { 'idempotency-key': 'k'.repeat(255) })).status).toBe(201);
  });

  it('a retry after the time has passed answers the reminder, not "in the past"; after a day the key is forgotten', async () => {
    const deps = server.app;
    const t0 = Date.parse('2031-05-06T07:00:00.000Z');
    const input = { message: 'Soon', date: '2031-05-06', time: '09:30', recurrence: 'ONCE', timezone: 'Europe/Paris', destinations: [] };
    const first = await createReminder(deps, a.id, input, { nowMs: t0, idempotencyKey: 'soon' });
    // 09:30 Paris is 07:30Z: an hour later it is past, but this is the same request again.
    const retry = await createReminder(deps, a.id, input, { nowMs: t0 + 60 * 60 * 1000, idempotencyKey: 'soon' });
    expect(retry.replayed).toBe(true);
    expect(retry.reminder.id).toBe(first.reminder.id);
    // A day later the key is forgotten: the same request is a new one (here refused as past).
    await expect(createReminder(deps, a.id, input, { nowMs: t0 + DAY_MS + 1, idempotencyKey: 'soon' })).rejects.toMatchObject({ code: 'REMINDER_IN_PAST' });
    const later = { ...input, date: '2031-05-08' };
    const fresh = await createReminder(deps, a.id, later, { nowMs: t0 + DAY_MS + 1, idempotencyKey: 'soon' });
    expect(fresh.replayed).toBeUndefined();
    expect(fresh.reminder.id).not.toBe(first.reminder.id);
    // Its record replaced the expired one, and expired records of every account are swept.
    const rows = await deps.db.selectFrom('idempotency_keys').select(['account_id', 'created_at']).execute();
    expect(rows.filter((r) => r.created_at <= new Date(t0 + 1).toISOString())).toEqual([]);
    expect(rows.filter((r) => r.account_id === a.id && r.created_at === new Date(t0 + DAY_MS + 1).toISOString())).toHaveLength(1);
    const copy = await duplicateReminder(deps, a.id, fresh.reminder.id, { nowMs: t0 + DAY_MS + 2, idempotencyKey: 'soon-copy' });
    expect((await duplicateReminder(deps, a.id, fresh.reminder.id, { nowMs: t0 + 2 * DAY_MS, idempotencyKey: 'soon-copy' })).reminder.id).toBe(copy.reminder.id);
  });

  it('sweeps expired keys in short batches: a backlog goes on at the next sweep, live keys stay', async () => {
    const deps = server.app;
    const t1 = Date.parse('2032-03-01T12:00:00.000Z');
    // The other tests' keys would count in the batches.
    await deps.db.deleteFrom('idempotency_keys').execute();
    const old = (i: number) => new Date(t1 - DAY_MS - 60_000 - i * 1000).toISOString();
    const rows = Array.from({ length: 7000 }, (_, i) => ({ account_id: b.id, key_hash: `old-${i}`, operation: 'reminders.create', fingerprint: 'f', result: '{}', created_at: old(i) }));
    rows.push({ account_id: b.id, key_hash: 'live', operation: 'reminders.create', fingerprint: 'f', result: '{}', created_at: new Date(t1 - 60_000).toISOString() });
    for (let i = 0; i < rows.length; i += 500) await deps.db.insertInto('idempotency_keys').values(rows.slice(i, i + 500)).execute();
    const left = async () => (await deps.db.selectFrom('idempotency_keys').select('key_hash').where('account_id', '=', b.id).execute()).map((r) => r.key_hash);
    const create = (nowMs: number, k: string) => createReminder(deps, b.id, { ...reminder('Sweep'), date: '2033-01-01' }, { nowMs, idempotencyKey: k });

    await create(t1, 'sweep-1');
    // Five batches of about a thousand, the oldest first.
    let keys = await left();
    expect(keys.filter((k) => k.startsWith('old-'))).toHaveLength(2000);
    expect(keys.filter((k) => k.startsWith('old-')).every((k) => Number(k.slice(4)) < 2000)).toBe(true);
    // Within the minute, no sweep; after it, the rest.
    await create(t1 + 30_000, 'sweep-2');
    expect((await left()).filter((k) => k.startsWith('old-'))).toHaveLength(2000);
    await create(t1 + 61_000, 'sweep-3');
    keys = await left();
    expect(keys.filter((k) => k.startsWith('old-'))).toEqual([]);
    expect(keys).toContain('live');
  });

  it('a sweep that fails does not fail the create that ran it; the next sweep deletes what it left', async () => {
    const deps = server.app;
    const t2 = Date.parse('2034-07-01T12:00:00.000Z');
    await deps.db
      .insertInto('idempotency_keys')
      .values({ account_id: b.id, key_hash: 'expired', operation: 'reminders.create', fingerprint: 'f', result: '{}', created_at: new Date(t2 - 2 * DAY_MS).toISOString() })
      .execute();
    // The database refuses every delete of a key record (a full disk or a lost lock would too):
    // the sweep fails, the create's own insert does not.
    if (onPostgres) {
      await sql`create function refuse_key_delete() returns trigger language plpgsql as $$ begin raise exception 'no deletes here'; end $$`.execute(deps.db);
      await sql`create trigger refuse_key_delete before delete on idempotency_keys for each row execute function refuse_key_delete()`.execute(deps.db);
    } else {
      await sql`create trigger refuse_key_delete before delete on idempotency_keys begin select raise(abort, 'no deletes here'); end`.execute(deps.db);
    }
    const left = async () => (await deps.db.selectFrom('idempotency_keys').select('key_hash').where('account_id', '=', b.id).execute()).map((r) => r.key_hash);
    try {
      const created = await createReminder(deps, b.id, { ...reminder('Despite the sweep'), date: '2035-01-01' }, { nowMs: t2, idempotencyKey: 'despite' });
      expect(created.reminder.message).toBe('Despite the sweep');
      expect(await left()).toContain('expired');
      // Its key was recorded: the same request again is answered, not created twice.
      const again = await createReminder(deps, b.id, { ...reminder('Despite the sweep'), date: '2035-01-01' }, { nowMs: t2 + 1000, idempotencyKey: 'despite' });
      expect(again.replayed).toBe(true);
      expect(again.reminder.id).toBe(created.reminder.id);
    } finally {
      await sql`drop trigger refuse_key_delete${sql.raw(onPostgres ? ' on idempotency_keys' : '')}`.execute(deps.db);
      if (onPostgres) await sql`drop function refuse_key_delete()`.execute(deps.db);
    }
    await createReminder(deps, b.id, { ...reminder('After the sweep'), date: '2035-01-01' }, { nowMs: t2 + 61_000, idempotencyKey: 'after' });
    expect(await left()).not.toContain('expired');
  });

  it('deleting the account deletes its keys', async () => {
    const c = await signUp(server.url);
    expect((await c.api.post('/api/reminders', reminder('Gone soon'), key('gone'))).status).toBe(201);
    const before = await server.app.db.selectFrom('idempotency_keys').select('key_hash').where('account_id', '=', c.id).execute();
    expect(before).toHaveLength(1);
    const deleted = await c.api.call('DELETE', '/api/account', { password: 'correct horse battery' });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await server.app.db.selectFrom('idempotency_keys').select('key_hash').where('account_id', '=', c.id).execute()).toEqual([]);
  });
});
