/**
 * findRemindersOfAccount: several reminders with their destinations in two statements. It answers
 * what findReminderOfAccount answers for each id, in the order asked, with subscribers counted and
 * not listed, and leaves out ids of another account or of nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import { findReminderOfAccount, findRemindersOfAccount } from '../../../../server/repositories/reminders.ts';
import { useMigratedDatabase } from '../../../helpers/test-database.ts';
import { seedAccount, seedReminder } from '../../../helpers/webhook-sink.ts';

const migrated = useMigratedDatabase('chime-reminders-of-account-');
let database: DatabaseHandle;

beforeAll(() => {
  database = migrated();
});

describe('findRemindersOfAccount', () => {
  it('answers what findReminderOfAccount answers for each id, in order, without the ids of others', async () => {
    const db = database.db;
    const owner = await seedAccount(db, { username: 'owner' });
    const other = await seedAccount(db, { username: 'other' });
    const at = Date.now() + 3_600_000;
    const hooks = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://hooks.example.com/${i}` }));
    const a = await seedReminder(db, { accountId: owner, at, destinations: hooks(3) });
    const b = await seedReminder(db, { accountId: owner, at, destinations: [] });
    const c = await seedReminder(db, { accountId: owner, at, destinations: hooks(1) });
    const theirs = await seedReminder(db, { accountId: other, at, destinations: hooks(2) });
    // Someone pressed "Remind me too" under c: counted, never listed as the owner's destination.
    await db
      .insertInto('destinations')
      .values({ id: randomUUID(), reminder_id: c.id, type: 'discord_subscriber', metadata: '{}', secret: null, position: 5, disabled_at: null, disabled_reason: null, created_at: new Date().toISOString() })
      .execute();

    const ids = [c.id, theirs.id, a.id, randomUUID(), b.id];
    const found = await findRemindersOfAccount(db, owner, ids);
    const one = async (id: string) => (await findReminderOfAccount(db, owner, id))!;
    expect(found).toEqual([await one(c.id), await one(a.id), await one(b.id)]);
    expect(found.map((r) => [r.destinations.length, r.subscriber_count])).toEqual([
      [1, 1],
      [3, 0],
      [0, 0],
    ]);
    expect(await findRemindersOfAccount(db, owner, [])).toEqual([]);
  });
});
