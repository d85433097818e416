import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, openSqlite } from '../../../../server/db/connection.ts';
import { createMigrator, migrateToLatest } from '../../../../server/db/migrate.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'chime-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const now = new Date().toISOString();

async function seed(db: ReturnType<typeof createDatabase>['db']) {
  await db.insertInto('accounts').values({ id: 'a1', email: null, email_normalized: null, username: 'u', timezone: 'UTC', locale: null, created_at: now, updated_at: now }).execute();
  await db
    .insertInto('reminders')
    .values({ id: 'r1', account_id: 'a1', message: 'm', remind_at_utc: now, timezone: 'UTC', recurrence_type: 'DAILY', is_paused: 0, snoozed_at_utc: null, next_fire_utc: now, next_occurrence_utc: now, last_fired_at: null, completed_at: null, created_at: now, updated_at: now } as never)
    .execute();
  await db.insertInto('destinations').values({ id: 'd1', reminder_id: 'r1', type: 'webhook', metadata: '{}', secret: null, position: 0, disabled_at: null, disabled_reason: null, created_at: now }).execute();
  await db
    .insertInto('deliveries')
    .values({ id: 'v1', reminder_id: 'r1', destination_id: 'd1', account_id: 'a1', occurrence_utc: now, idempotency_key: 'k', status: 'failed', attempts: 1, next_attempt_at: null, late: 0, last_error: 'x', created_at: now, updated_at: now, delivered_at: null })
    .execute();
  await db
    .insertInto('delivery_attempts')
    .values({ delivery_id: 'v1', reminder_id: 'r1', destination_id: 'd1', account_id: 'a1', occurrence_utc: now, attempt: 1, outcome: 'failed', error: 'HTTP 500', http_status: 500, discord_code: null, duration_ms: 3, created_at: now })
    .execute();
}

describe('delivery log keys', () => {
  it('the rebuild of delivery_attempts keeps existing attempts', async () => {
    const { db } = createDatabase(path.join(dir, 'upgrade.db'));
    const migrator = createMigrator(db);
    const before = await migrator.migrateTo('2026-11-22-102-deliveries-open-partial-index');
    expect(before.error).toBeUndefined();
    await seed(db);
    await migrateToLatest(db);
    const rows = await db.selectFrom('delivery_attempts').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delivery_id: 'v1', reminder_id: 'r1', error: 'HTTP 500', http_status: 500 });
    await db.destroy();
  });

  it('deleting a reminder removes its attempts through the delivery, without a scan of the log', async () => {
    const { db, sqlite } = openSqlite(path.join(dir, 'fresh.db'));
    await migrateToLatest(db);
    await seed(db);
    const plan = sqlite.prepare("explain query plan delete from reminders where id = 'r1'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).filter((d) => d.startsWith('SCAN'))).toEqual([]);
    await db.deleteFrom('reminders').where('id', '=', 'r1').execute();
    expect(await db.selectFrom('delivery_attempts').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('deliveries').selectAll().execute()).toEqual([]);
    await db.destroy();
  });
});
