import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceId, deliveryLeaseOwner, takeInstanceName } from '../../../../server/lib/leadership.ts';
import { startTestServer } from '../../../helpers/server.ts';
import { seedAccount, seedReminder, startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

let sink: WebhookSink;
const dirs: string[] = [];

function freshDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-recovery-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  sink = await startWebhookSink();
});
afterAll(async () => {
  await sink?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const forReminder = (id: string) => sink.requests.filter((r) => r.json?.reminder_id === id);

describe('scheduler across restarts', () => {
  it('a delivery claimed but not sent before a crash is sent once after restart, with the same webhook-id', async () => {
    const dir = freshDir();
    const first = await startTestServer({ dir });
    first.app.scheduler.setOptions({ shutdownTimeoutMs: 50 });
    // A sender that never answers: the occurrence is claimed (outbox row written) but never sent.
    first.app.scheduler.registerSender('webhook', {
      concurrencyKey: () => 'stuck',
      send: (ctx) =>
        new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ ok: false, retryable: true, code: 'TEST_ABORTED', error: 'aborted' }))),
    });
    const accountId = await seedAccount(first.app.db);
    const { id } = await seedReminder(first.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: sink.url }] });
    await first.app.scheduler.tick();
    const claimed = await first.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
    expect(claimed).toHaveLength(1);
    expect(claimed[0]!.status).toBe('pending');
    await first.close();

    const stillPending = await (async () => {
      const s = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
      const rows = await s.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
      const attempts = await s.app.db.selectFrom('delivery_attempts').selectAll().where('reminder_id', '=', id).execute();
      await s.close();
      return { rows, attempts };
    })();
    expect(stillPending.rows[0]!.status).toBe('pending');
    expect(stillPending.attempts).toHaveLength(0); // the abandoned send is not an attempt

    const second = await startTestServer({ dir });
    try {
      await sink.waitForMatching((r) => r.json?.reminder_id === id, 1, 3000);
      await second.app.scheduler.drain();
      const got = forReminder(id);
      expect(got).toHaveLength(1);
      expect(got[0]!.headers['webhook-id']).toBe(claimed[0]!.idempotency_key);
      const rows = await second.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('delivered');
      const reminder = await second.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(reminder.next_fire_utc).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('a send in flight at shutdown is resent on start with the same webhook-id, and recorded once', async () => {
    const dir = freshDir();
    const first = await startTestServer({ dir });
    first.app.scheduler.setOptions({ shutdownTimeoutMs: 100 });
    const accountId = await seedAccount(first.app.db);
    sink.reply({ delayMs: 5000 });
    const { id } = await seedReminder(first.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: sink.url }] });
    first.app.scheduler.wake();
    await sink.waitForMatching((r) => r.json?.reminder_id === id, 1, 3000);
    const firstId = forReminder(id)[0]!.headers['webhook-id'];
    await first.close(); // in flight: abandoned after 100 ms, left pending
    sink.reply({ status: 200 });

    const second = await startTestServer({ dir });
    try {
      await second.app.scheduler.drain();
      const deadline = Date.now() + 3000;
      while (forReminder(id).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await second.app.scheduler.drain();
      const got = forReminder(id);
      expect(got).toHaveLength(2);
      expect(got[1]!.headers['webhook-id']).toBe(firstId);
      const attempts = await second.app.db.selectFrom('delivery_attempts').selectAll().where('reminder_id', '=', id).execute();
      expect(attempts.map((a) => a.outcome)).toEqual(['delivered']);
    } finally {
      await second.close();
    }
  });

  it('a ONCE reminder missed while the server was down is delivered once on start, marked late', async () => {
    const dir = freshDir();
    const seedServer = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
    const accountId = await seedAccount(seedServer.app.db);
    const due = Date.now() - 5 * 60_000;
    const { id } = await seedReminder(seedServer.app.db, { accountId, at: due, destinations: [{ url: sink.url }] });
    await seedServer.close();

    const server = await startTestServer({ dir });
    try {
      await sink.waitForMatching((r) => r.json?.reminder_id === id, 1, 3000);
      await server.app.scheduler.drain();
      await server.app.scheduler.runOnce();
      const got = forReminder(id);
      expect(got).toHaveLength(1);
      expect(got[0]!.json).toMatchObject({ late: true, occurrence_at: new Date(due).toISOString() });
      const [d] = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', id).execute();
      expect(d).toMatchObject({ late: 1, status: 'delivered' });
      const reminder = await server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(reminder.completed_at).not.toBeNull();
    } finally {
      await server.close();
    }
    // And a third start sends nothing more.
    const again = await startTestServer({ dir });
    try {
      await again.app.scheduler.runOnce();
      expect(forReminder(id)).toHaveLength(1);
    } finally {
      await again.close();
    }
  });

  it('an instance started again takes back the leases of its earlier life at once; another instance\'s wait for their expiry', async () => {
    const dir = freshDir();
    const first = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
    // A sender that never answers: the occurrences are claimed (outbox rows written) but not sent.
    first.app.scheduler.registerSender('webhook', {
      concurrencyKey: () => 'stuck',
      send: (ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ ok: false, retryable: true, code: 'TEST_ABORTED', error: 'aborted' }))),
    });
    first.app.scheduler.setOptions({ shutdownTimeoutMs: 50 });
    const accountId = await seedAccount(first.app.db);
    const own = await seedReminder(first.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: sink.url }] });
    const others = await seedReminder(first.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: sink.url }] });
    await first.app.scheduler.tick();
    await first.close();
    // What a SIGKILL leaves: each row still leased for the whole DELIVERY_LEASE_SECONDS (30 s), one
    // to this instance's delivery thread 0, one to another instance's.
    const until = new Date(Date.now() + 30_000).toISOString();
    const reopened = await startTestServer({ dir, overrides: { schedulerEnabled: false } });
    await reopened.app.db.updateTable('deliveries').set({ lease_owner: 'box-1:t0', lease_expires_at: until }).where('reminder_id', '=', own.id).execute();
    await reopened.app.db.updateTable('deliveries').set({ lease_owner: 'box-2:t0', lease_expires_at: until }).where('reminder_id', '=', others.id).execute();
    await reopened.close();

    const started = Date.now();
    const again = await startTestServer({ dir, env: { CHIME_INSTANCE_ID: 'box-1' } });
    try {
      await sink.waitForMatching((r) => r.json?.reminder_id === own.id);
      expect(forReminder(own.id)).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      await again.app.scheduler.drain();
      // The other instance's row waits for its lease to run out (it may still be sending it).
      expect(forReminder(others.id)).toHaveLength(0);
      const rows = await again.app.db.selectFrom('deliveries').select(['reminder_id', 'status', 'lease_owner']).execute();
      expect(rows.find((r) => r.reminder_id === own.id)).toMatchObject({ status: 'delivered', lease_owner: null });
      expect(rows.find((r) => r.reminder_id === others.id)).toMatchObject({ status: 'pending', lease_owner: 'box-2:t0' });
    } finally {
      await again.close();
    }
  });

  it('with the loop disabled by config nothing fires by itself, but tick() works', async () => {
    const server = await startTestServer({ overrides: { schedulerEnabled: false } });
    try {
      const accountId = await seedAccount(server.app.db);
      const { id } = await seedReminder(server.app.db, { accountId, at: Date.now() - 5, destinations: [{ url: sink.url }] });
      server.app.scheduler.wake();
      await new Promise((r) => setTimeout(r, 150));
      expect(forReminder(id)).toHaveLength(0);
      await server.app.scheduler.runOnce();
      expect(forReminder(id)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('instance names', () => {
  it('the default is stable for a host, database and port, and differs when any of them does', () => {
    const a = defaultInstanceId('./data/chime.db', 3000, 'box');
    expect(defaultInstanceId(path.resolve('./data/chime.db'), 3000, 'box')).toBe(a);
    expect(defaultInstanceId('sqlite:./data/chime.db', 3000, 'box')).toBe(a);
    expect(defaultInstanceId('./data/other.db', 3000, 'box')).not.toBe(a);
    expect(defaultInstanceId('./data/chime.db', 3000, 'other-box')).not.toBe(a);
    // Two processes on one host and database (bench/scale-out.ts runs three): each its own leases.
    expect(defaultInstanceId('./data/chime.db', 3001, 'box')).not.toBe(a);
    expect(a).toMatch(/^box-[0-9a-f]{8}$/);
  });

  it('two apps of one process on one database get different names; a name given back is taken again', () => {
    const first = takeInstanceName('box-test');
    const second = takeInstanceName('box-test');
    expect([first.name, second.name]).toEqual(['box-test', 'box-test-2']);
    first.release();
    const again = takeInstanceName('box-test');
    expect(again.name).toBe('box-test');
    second.release();
    again.release();
    expect(deliveryLeaseOwner('box-test', 1)).toBe('box-test:t1');
  });
});
