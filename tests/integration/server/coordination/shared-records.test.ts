/**
 * State that several instances share through the database (docs/operations.md "Running several instances"):
 * single-use records (Discord OAuth states, setup tickets) and fixed-window counters. Two stores
 * over one real SQLite file stand for two instances.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import { RateWindow } from '../../../../server/coordination/rate-window.ts';
import { SharedRecordStore } from '../../../../server/coordination/shared-records.ts';
import { useMigratedDatabase } from '../../../helpers/test-database.ts';

const migrated = useMigratedDatabase('chime-shared-');
let database: DatabaseHandle;
let now = Date.parse('2026-11-23T10:00:00.000Z');
const clock = () => now;

beforeAll(() => {
  database = migrated();
});

describe('single-use records', () => {
  it('are created on one instance and taken once on another', async () => {
    const a = new SharedRecordStore<{ accountId: string }>(database.db, 'ticket', 60_000, clock);
    const b = new SharedRecordStore<{ accountId: string }>(database.db, 'ticket', 60_000, clock);
    const key = await a.create({ accountId: 'acc-1' });
    expect(await b.peek(key)).toEqual({ accountId: 'acc-1' });
    const [first, second] = await Promise.all([b.take(key), a.take(key)]);
    expect([first, second].filter(Boolean)).toEqual([{ accountId: 'acc-1' }]);
    expect(await a.peek(key)).toBeNull();
  });

  it('expire, are kept apart by kind, and store only a hash of the key', async () => {
    const states = new SharedRecordStore<string>(database.db, 'state', 60_000, clock);
    const tickets = new SharedRecordStore<string>(database.db, 'other', 60_000, clock);
    const key = await states.create('login');
    expect(await tickets.peek(key)).toBeNull();
    const stored = await database.db.selectFrom('short_lived_records').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(key);
    now += 60_001;
    expect(await states.take(key)).toBeNull();
    expect(await states.peek(null)).toBeNull();
  });
});

describe('fixed-window counters', () => {
  it('count the hits of every instance against one limit, and reopen when the window ends', async () => {
    const a = new RateWindow(database.db, 'feed', 3, 60_000, clock);
    const b = new RateWindow(database.db, 'feed', 3, 60_000, clock);
    expect(await a.hit('token-1')).toBeNull();
    expect(await b.hit('token-1')).toBeNull();
    expect(await a.hit('token-1')).toBeNull();
    const wait = await b.hit('token-1');
    expect(wait).toBe(60_000);
    // Another key and another limit's counter are separate.
    expect(await a.hit('token-2')).toBeNull();
    expect(await new RateWindow(database.db, 'other', 3, 60_000, clock).hit('token-1')).toBeNull();
    now += 30_000;
    expect(await a.hit('token-1')).toBe(30_000);
    now += 30_000;
    expect(await b.hit('token-1')).toBeNull();
    const keys = await database.db.selectFrom('rate_windows').select('key').execute();
    expect(keys.some((k) => k.key.includes('token'))).toBe(false);
  });
});
