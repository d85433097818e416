/**
 * prepared(): a fixed-shape query compiled once per dialect, run with each call's values. On both
 * databases, on the database and inside a transaction, it answers exactly what the same query
 * built by Kysely answers, and a value that looks like a placeholder stays a value.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import { prepared } from '../../../../server/repositories/prepared.ts';
import { seedAccount } from '../../../helpers/webhook-sink.ts';
import { onPostgres, useMigratedDatabase } from '../../../helpers/test-database.ts';

const migrated = useMigratedDatabase('chime-prepared-');
let database: DatabaseHandle;

beforeAll(() => {
  database = migrated();
});

const byZone = prepared(['zone', 'after'], (db, p: { zone: string; after: string }) =>
  db.selectFrom('accounts').select(['id', 'username']).where('timezone', '=', p.zone).where('username', '>', p.after).orderBy('username'),
);

describe('prepared queries', () => {
  it('answer what the query built each time answers, for every set of values', async () => {
    const db = database.db;
    for (const [zone, name] of [['Europe/Paris', 'ana'], ['Europe/Paris', 'bob'], ['Asia/Tokyo', 'cho'], ['Asia/Kathmandu', 'dee']] as const) {
      await seedAccount(db, { timezone: zone, username: name });
    }
    for (const [zone, after] of [['Europe/Paris', ''], ['Europe/Paris', 'ana'], ['Asia/Tokyo', ''], ['America/Lima', ''], ['Asia/Kathmandu', 'a']]) {
      const expected = await db.selectFrom('accounts').select(['id', 'username']).where('timezone', '=', zone!).where('username', '>', after!).orderBy('username').execute();
      expect((await byZone(db, { zone: zone!, after: after! })).rows).toEqual(expected);
    }
    expect((await byZone(db, { zone: 'Europe/Paris', after: '' })).rows.map((r) => r.username)).toEqual(['ana', 'bob']);
  });

  it('runs inside a transaction, seeing its uncommitted rows', async () => {
    await database.db
      .transaction()
      .execute(async (trx) => {
        await seedAccount(trx as never, { timezone: 'Pacific/Chatham', username: 'eve' });
        expect((await byZone(trx, { zone: 'Pacific/Chatham', after: '' })).rows.map((r) => r.username)).toEqual(['eve']);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await byZone(database.db, { zone: 'Pacific/Chatham', after: '' })).rows).toEqual([]);
  });

  // PostgreSQL text cannot hold U+0000 at all (requests with one are refused before any query).
  it.skipIf(onPostgres)('takes a value that looks like a placeholder as a value', async () => {
    expect((await byZone(database.db, { zone: '\u0000zone\u0000', after: '' })).rows).toEqual([]);
    expect((await byZone(database.db, { zone: 'Europe/Paris', after: '\u0000after\u0000' })).rows.map((r) => r.username)).toEqual(['ana', 'bob']);
  });

  it('refuses a build that does not bind every named value', () => {
    const bad = prepared(['zone', 'unused'], (db, p: { zone: string; unused: string }) => db.selectFrom('accounts').select('id').where('timezone', '=', p.zone));
    expect(() => bad(database.db, { zone: 'UTC', unused: 'x' })).toThrow(/unused not bound/);
  });
});
