// Runs on PostgreSQL only: it races row locks and advisory locks that SQLite's single writer never needs.
/**
 * Every read-then-write that needs protection on PostgreSQL, raced by two instances (two handles,
 * each with its own pool, on one database) at READ COMMITTED. Each test fails when its protection
 * (a lock, a unique key, one atomic statement) is taken away.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import { sha256Hex } from '../../../../server/lib/ids.ts';
import { DatabaseAttemptThrottle } from '../../../../server/accounts/login-throttle.ts';
import { confirmAddress } from '../../../../server/mail/email-addresses.ts';
import { confirmPasswordReset } from '../../../../server/mail/password-reset.ts';
import { createMailService } from '../../../../server/mail/service.ts';
import { MAX_REMINDERS_PER_ACCOUNT } from '../../../../server/reminders/input.ts';
import { createReminder, type ReminderDeps } from '../../../../server/reminders/service.ts';
import { skipOccurrence } from '../../../../server/reminders/skip.ts';
import { insertResetToken, upsertConfirmationToken } from '../../../../server/repositories/email.ts';
import { reminderListToken } from '../../../../server/reminders/service.ts';
import { openRacingInstances, type RacingInstances } from '../../../helpers/racing-instances.ts';

let instances: RacingInstances | undefined;
let a: DatabaseHandle;
let b: DatabaseHandle;
beforeAll(async () => {
  instances = await openRacingInstances();
  ({ a, b } = instances);
});
afterAll(async () => {
  await instances?.close();
});

/** `n` calls, alternating between the two instances, all started at once; their outcomes. */
const race = <T>(n: number, call: (h: DatabaseHandle, i: number) => Promise<T>) =>
  Promise.allSettled(Array.from({ length: n }, (_, i) => call(i % 2 ? b : a, i)));

async function newAccount(): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await a.db
    .insertInto('accounts')
    .values({ id, email: `${id}@example.com`, email_normalized: `${id}@example.com`, username: 'racer', timezone: 'UTC', locale: null, created_at: now, updated_at: now })
    .execute();
  return id;
}

const config = loadConfig({ DATABASE_URL: 'postgres://chime:chime@127.0.0.1:5432/unused' });
const deps = (h: DatabaseHandle) => ({ db: h.db, scheduler: { wake() {} }, config, discord: null, log: console }) as unknown as ReminderDeps;
const body = { date: '2031-05-01', time: '09:00', message: 'raced', recurrence: 'DAILY', destinations: [] };

describe('read-then-writes racing on two instances', () => {
  it('login throttle: parallel guesses are judged one after the other (advisory locks on the counters)', async () => {
    const policy = { maxFailuresPerPair: 2, accountFreeFailures: 100, networkFreeFailures: 100 };
    const throttle = (h: DatabaseHandle) => new DatabaseAttemptThrottle(h.db, policy);
    const key = { account: `${randomUUID()}@example.com`, ip: '203.0.113.7' };
    // One wrong guess already: one more may be judged, then the pair is held.
    expect((await throttle(a).begin(key)).allowed).toBe(true);
    const gates = await race(12, (h) => throttle(h).begin(key));
    const allowed = gates.filter((g) => g.status === 'fulfilled' && g.value.allowed);
    expect(allowed).toHaveLength(1);
  });

  it('mail-hour slot: parallel sends cannot both take the last slot (account row lock)', async () => {
    const accountId = await newAccount();
    let sent = 0;
    const mailer = { send: async () => (sent++, { ok: true as const }), close: async () => {} };
    const mail = (h: DatabaseHandle) => createMailService(h.db, { smtpUrl: 'smtp://127.0.0.1:1', from: 'chime@example.com', hourlyLimit: 2 }, mailer);
    const outcomes = await race(10, (h) => mail(h).send(accountId, 'reminder', 'to@example.com', { subject: 's', text: 't', html: '<p>t</p>' }));
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value.ok)).toHaveLength(2);
    expect(sent).toBe(2);
    const logged = await a.db.selectFrom('email_sends').select('id').where('account_id', '=', accountId).execute();
    expect(logged).toHaveLength(2);
  });

  it('reminder limit: parallel creates at the limit add one reminder, not one each (account row lock)', async () => {
    const accountId = await newAccount();
    const now = new Date().toISOString();
    const rows = Array.from({ length: MAX_REMINDERS_PER_ACCOUNT - 1 }, (_, i) => ({
      id: randomUUID(),
      account_id: accountId,
      message: `filler ${i}`,
      local_date: '2031-05-01',
      local_time: '09:00',
      remind_at_utc: '2031-05-01T09:00:00.000Z',
      timezone: 'UTC',
      recurrence_type: 'ONCE' as const,
      is_paused: 0,
      snoozed_at_utc: null,
      next_fire_utc: '2031-05-01T09:00:00.000Z',
      next_occurrence_utc: '2031-05-01T09:00:00.000Z',
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 1000) await a.db.insertInto('reminders').values(rows.slice(i, i + 1000)).execute();
    const outcomes = await race(6, (h) => createReminder(deps(h), accountId, body));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(Array(5).fill('REMINDER_LIMIT'));
    const { n } = await a.db.selectFrom('reminders').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    expect(n).toBe(MAX_REMINDERS_PER_ACCOUNT);
  });

  it('idempotency key: parallel creates with one key make one reminder and answer it to all (primary key)', async () => {
    const accountId = await newAccount();
    const idempotencyKey = randomUUID();
    const outcomes = await race(6, (h) => createReminder(deps(h), accountId, body, { idempotencyKey }));
    const ids = outcomes.map((o) => (o.status === 'fulfilled' ? o.value.reminder.id : `rejected: ${(o as PromiseRejectedResult).reason}`));
    expect(new Set(ids).size).toBe(1);
    const stored = await a.db.selectFrom('reminders').select('id').where('account_id', '=', accountId).execute();
    expect(stored.map((r) => r.id)).toEqual([ids[0]]);
  });

  it('skipped occurrences: parallel skips of one reminder keep every skip (reminder row lock)', async () => {
    const accountId = await newAccount();
    const created = await createReminder(deps(a), accountId, body, { nowMs: Date.parse('2031-01-01T00:00:00Z') });
    const days = Array.from({ length: 6 }, (_, i) => `2031-05-${String(i + 2).padStart(2, '0')}T09:00:00.000Z`);
    await race(days.length, (h, i) => skipOccurrence(deps(h), accountId, created.reminder.id, days[i], Date.parse('2031-01-01T00:00:00Z')));
    const row = await a.db.selectFrom('reminders').select('exceptions').where('id', '=', created.reminder.id).executeTakeFirstOrThrow();
    expect((JSON.parse(row.exceptions) as string[]).sort()).toEqual(days);
  });

  it('email confirmation link: used by two requests at once, it confirms once (one UPDATE ... RETURNING)', async () => {
    const accountId = await newAccount();
    const token = randomUUID();
    const now = new Date().toISOString();
    await upsertConfirmationToken(a.db, { account_id: accountId, address_normalized: 'me@example.com', address: 'me@example.com', token_hash: sha256Hex(token), token_expires_at: '2999-01-01T00:00:00.000Z', now });
    const outcomes = await race(6, (h) => confirmAddress(h.db, token));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
  });

  it('password reset link: used by two requests at once, it sets one password (one UPDATE ... RETURNING)', async () => {
    const accountId = await newAccount();
    const token = randomUUID();
    await insertResetToken(a.db, { token_hash: sha256Hex(token), account_id: accountId, created_at: new Date().toISOString(), expires_at: '2999-01-01T00:00:00.000Z' });
    const outcomes = await race(4, (h, i) => confirmPasswordReset(h.db, token, `new password number ${i}`));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(Array(3).fill('RESET_TOKEN_USED'));
  });

  it('list token: a change committed on one instance moves the other\'s token at once, every time (LISTEN/NOTIFY)', async () => {
    const accountId = await newAccount();
    const other = await newAccount();
    const created = await createReminder(deps(a), accountId, body);
    const token = () => reminderListToken({ db: b.db, dbDialect: 'postgres', dbAccountChangeToken: b.accountChangeToken }, accountId);
    let before = await token();
    for (let i = 0; i < 30; i++) {
      await a.db.updateTable('reminders').set({ message: `edit ${i}` }).where('id', '=', created.reminder.id).execute();
      const now = await token();
      expect(now).not.toBe(before);
      before = now;
      // Another account's change leaves it put.
      await a.db.updateTable('accounts').set({ username: `other ${i}` }).where('id', '=', other).execute();
      expect(await token()).toBe(before);
    }
  });
});
