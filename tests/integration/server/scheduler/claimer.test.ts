/**
 * The claimer on a real SQLite file (migrated like production), with a hand-moved clock: due
 * reminders -> outbox rows and the reminders' next fire, in one transaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabaseHandle } from '../../../../server/db/connection.ts';
import { migrateToLatest } from '../../../../server/db/migrate.ts';
import { Claimer } from '../../../../server/scheduler/claimer.ts';
import { ManualClock } from '../../../../server/scheduler/clock.ts';
import { seedAccount, seedReminder } from '../../../helpers/webhook-sink.ts';

const LATE = 60_000;
let dir: string;
let handle: SqliteDatabaseHandle;
const db = () => handle.db;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'chime-claimer-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
// A database of its own per test: a claim takes every due reminder in it.
let n = 0;
beforeEach(async () => {
  handle = openSqlite(path.join(dir, `chime-${++n}.db`));
  await migrateToLatest(handle.db);
});
afterEach(async () => {
  await handle.db.destroy();
});

const freshClock = () => new ManualClock(Date.UTC(2030, 0, 1, 8, 0, 0));

const reminder = (id: string) => db().selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const deliveriesOf = (id: string) => db().selectFrom('deliveries').selectAll().where('reminder_id', '=', id).orderBy('id').execute();

describe('Claimer', () => {
  it('writes one pending delivery per enabled destination and moves each reminder on', async () => {
    const clock = freshClock();
    const now = clock.now();
    const accountId = await seedAccount(db(), { locale: 'fr', timezone: 'Europe/Paris' });
    const once = await seedReminder(db(), {
      accountId,
      at: now - 5_000,
      message: 'Once',
      destinations: [{ url: 'http://a.test/1' }, { url: 'http://b.test/2', platform: 'slack' }, { url: 'http://c.test/3' }],
    });
    await db().updateTable('destinations').set({ disabled_at: new Date(now).toISOString(), disabled_reason: 'gone' }).where('id', '=', once.destinations[2]!.id).execute();
    const daily = await seedReminder(db(), { accountId, at: now - 2 * 86_400_000 - 3 * 60_000, recurrence: 'DAILY', nextFire: now - 3 * 60_000, destinations: [{ type: 'discord_dm' }] });

    const claimed = await new Claimer(db(), clock).claim(100, LATE);
    expect(claimed).toMatchObject({ reminders: 2, deliveries: 3 });
    expect(claimed.rows).toHaveLength(3);
    // Lateness: 5 s for the one-off's two destinations, 3 min for the daily one.
    expect([...claimed.lateness].sort((a, b) => a - b)).toEqual([5, 5, 180]);

    const onceRows = claimed.rows.filter((r) => r.reminder_id === once.id);
    expect(onceRows.map((r) => r.destination_id)).toEqual([once.destinations[0]!.id, once.destinations[1]!.id]);
    expect(onceRows[0]).toMatchObject({
      status: 'pending',
      attempts: 0,
      late: 0,
      occurrence_utc: new Date(now - 5_000).toISOString(),
      next_attempt_at: new Date(now).toISOString(),
      message: 'Once',
      destination_type: 'webhook',
      account_timezone: 'Europe/Paris',
      locale: 'fr',
    });
    expect(onceRows[0]!.idempotency_key).toMatch(/^msg_/);
    expect(onceRows[0]!.idempotency_key).not.toBe(onceRows[1]!.idempotency_key);
    const dailyRow = claimed.rows.find((r) => r.reminder_id === daily.id)!;
    expect(dailyRow).toMatchObject({ late: 1, destination_type: 'discord_dm', occurrence_utc: new Date(now - 3 * 60_000).toISOString() });

    // What was returned is what is in the table.
    const stored = await deliveriesOf(once.id);
    expect(stored.map((d) => [d.id, d.status, d.idempotency_key])).toEqual(onceRows.map((r) => [r.id, 'pending', r.idempotency_key]).sort());

    const o = await reminder(once.id);
    expect(o).toMatchObject({ next_fire_utc: null, next_occurrence_utc: null, completed_at: new Date(now).toISOString(), last_fired_at: new Date(now).toISOString() });
    const d = await reminder(daily.id);
    expect(d).toMatchObject({ next_fire_utc: new Date(now + 86_400_000 - 3 * 60_000).toISOString(), completed_at: null, snoozed_at_utc: null });
    expect(d.next_occurrence_utc).toBe(d.next_fire_utc);

    // Claiming again at the same instant finds nothing: the reminders moved on.
    expect(await new Claimer(db(), clock).claim(100, LATE)).toEqual({ reminders: 0, deliveries: 0, lateness: [], rows: [], prepared: 0 });
  });

  it('ignores reminders not due yet and paused ones; takes at most `limit`, earliest first', async () => {
    const clock = freshClock();
    const now = clock.now();
    const accountId = await seedAccount(db());
    const later = await seedReminder(db(), { accountId, at: now + 1, destinations: [{ url: 'http://a.test/' }] });
    const paused = await seedReminder(db(), { accountId, at: now - 1, paused: true, destinations: [{ url: 'http://a.test/' }] });
    const first = await seedReminder(db(), { accountId, at: now - 3_000, destinations: [{ url: 'http://a.test/' }] });
    const second = await seedReminder(db(), { accountId, at: now - 2_000, destinations: [{ url: 'http://a.test/' }] });
    const third = await seedReminder(db(), { accountId, at: now - 1_000, destinations: [{ url: 'http://a.test/' }] });

    const claimer = new Claimer(db(), clock);
    const a = await claimer.claim(2, LATE);
    expect(a.reminders).toBe(2);
    expect(a.rows.map((r) => r.reminder_id)).toEqual([first.id, second.id]);
    const b = await claimer.claim(2, LATE);
    expect(b.rows.map((r) => r.reminder_id)).toEqual([third.id]);
    expect(await deliveriesOf(later.id)).toHaveLength(0);
    expect(await deliveriesOf(paused.id)).toHaveLength(0);

    await clock.advance(1);
    expect((await claimer.claim(2, LATE)).rows.map((r) => r.reminder_id)).toEqual([later.id]);
  });

  it('an occurrence already in the outbox is not written twice; the result says the rows are incomplete', async () => {
    const clock = freshClock();
    const now = clock.now();
    const accountId = await seedAccount(db());
    const r = await seedReminder(db(), { accountId, at: now - 10, destinations: [{ url: 'http://a.test/' }, { url: 'http://b.test/' }] });
    const nowIso = new Date(now).toISOString();
    await db()
      .insertInto('deliveries')
      .values({
        id: 'pre-existing',
        reminder_id: r.id,
        destination_id: r.destinations[0]!.id,
        account_id: accountId,
        occurrence_utc: new Date(now - 10).toISOString(),
        idempotency_key: 'msg_pre',
        status: 'pending',
        attempts: 0,
        next_attempt_at: nowIso,
        late: 0,
        last_error: null,
        created_at: nowIso,
        updated_at: nowIso,
        delivered_at: null,
      })
      .execute();
    const claimed = await new Claimer(db(), clock).claim(10, LATE);
    expect(claimed.reminders).toBe(1);
    expect(claimed.deliveries).toBe(1);
    // The chunk had a conflict: which row went in is unknown, so none is handed over (the sweep reads it).
    expect(claimed.rows).toEqual([]);
    const rows = await deliveriesOf(r.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((d) => d.id === 'pre-existing')!.idempotency_key).toBe('msg_pre');
  });

  it('a reminder whose zone the runtime refuses fires its scheduled occurrence, then stops', async () => {
    const clock = freshClock();
    const now = clock.now();
    const accountId = await seedAccount(db());
    const r = await seedReminder(db(), { accountId, at: now - 10, recurrence: 'DAILY', destinations: [{ url: 'http://a.test/' }] });
    await db().updateTable('reminders').set({ timezone: 'Mars/Olympus_Mons' }).where('id', '=', r.id).execute();
    const claimed = await new Claimer(db(), clock).claim(10, LATE);
    expect(claimed.rows).toHaveLength(1);
    expect(claimed.rows[0]!.occurrence_utc).toBe(new Date(now - 10).toISOString());
    expect(await reminder(r.id)).toMatchObject({ next_fire_utc: null, completed_at: new Date(now).toISOString() });
  });

  it('all or nothing: when writing the outbox fails, no reminder moves', async () => {
    const clock = freshClock();
    const now = clock.now();
    const accountId = await seedAccount(db());
    const r = await seedReminder(db(), { accountId, at: now - 10, recurrence: 'HOURLY', destinations: [{ url: 'http://a.test/' }] });
    const before = await reminder(r.id);
    handle.sqlite.exec(`create trigger fail_outbox before insert on deliveries begin select raise(abort, 'disk full'); end`);
    try {
      await expect(new Claimer(db(), clock).claim(10, LATE)).rejects.toThrow(/disk full/);
    } finally {
      handle.sqlite.exec('drop trigger fail_outbox');
    }
    expect(await reminder(r.id)).toEqual(before);
    expect(await deliveriesOf(r.id)).toHaveLength(0);
    // Once the fault is gone the same occurrence is claimed.
    const claimed = await new Claimer(db(), clock).claim(10, LATE);
    expect(claimed.rows.map((row) => row.occurrence_utc)).toEqual([new Date(now - 10).toISOString()]);
  });
  it('a custom rule fires its occurrences in its zone, never a skipped one, and completes when COUNT is used up', async () => {
    const clock = freshClock(); // 2030-01-01 08:00 UTC
    const accountId = await seedAccount(db(), { timezone: 'America/New_York' });
    // Every 2 days at 03:00 New York, 3 times, from 2030-01-01 (08:00 UTC): Jan 1, Jan 3 (skipped), Jan 5.
    const r = await seedReminder(db(), {
      accountId,
      at: clock.now(),
      timezone: 'America/New_York',
      recurrence: 'CUSTOM',
      rrule: 'FREQ=DAILY;INTERVAL=2;COUNT=3',
      exceptions: [Date.UTC(2030, 0, 3, 8)],
      destinations: [{ url: 'http://a.test/1' }],
    });
    const claimer = new Claimer(db(), clock);
    expect(await claimer.claim(100, LATE)).toMatchObject({ reminders: 1, deliveries: 1 });
    expect(await reminder(r.id)).toMatchObject({ next_fire_utc: '2030-01-05T08:00:00.000Z', completed_at: null });

    await clock.advanceTo(Date.UTC(2030, 0, 3, 8, 0, 1));
    expect(await claimer.claim(100, LATE)).toMatchObject({ reminders: 0 });
    await clock.advanceTo(Date.UTC(2030, 0, 5, 8, 0, 1));
    expect(await claimer.claim(100, LATE)).toMatchObject({ reminders: 1 });
    expect(await reminder(r.id)).toMatchObject({ next_fire_utc: null, next_occurrence_utc: null });
    expect((await reminder(r.id)).completed_at).not.toBeNull();
    expect((await deliveriesOf(r.id)).map((d) => d.occurrence_utc)).toEqual(['2030-01-01T08:00:00.000Z', '2030-01-05T08:00:00.000Z']);
  });
});
