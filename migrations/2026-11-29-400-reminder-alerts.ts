import { type Kysely, sql } from 'kysely';

/**
 * Alerts before a reminder's time (docs/time.md "Alerts before"): "1 day and 15 minutes before".
 *
 *  - reminders.alerts: what the user chose, JSON text of up to 3 distinct minute counts before each
 *    occurrence (`[]`: none). Stored as the user's choice; every instant is derived from it.
 *  - reminders.next_alert_utc: derived, the next alert instant of the pending occurrence that is
 *    still to be sent (null: none). Which alert it is follows from next_occurrence_utc minus it.
 *    Indexed like reminders_due_idx (only rows that can fire), so the claim and the timer read it
 *    with one seek.
 *  - deliveries.alert_minutes: 0 for the occurrence itself, N for the alert N minutes before it.
 *    NOT NULL with 0 rather than NULL so that one plain unique index (no COALESCE expression, no
 *    pair of partial indexes, the same ON CONFLICT target on SQLite and PostgreSQL) keeps every
 *    firing exactly once: (reminder, occurrence, destination, alert). It replaces
 *    deliveries_occurrence_uq, whose three columns it starts with, so lookups by them still use it.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reminders').addColumn('alerts', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('reminders').addColumn('next_alert_utc', 'text').execute();
  await db.schema
    .createIndex('reminders_alert_due_idx')
    .on('reminders')
    .column('next_alert_utc')
    .where(sql.ref('next_alert_utc'), 'is not', null)
    .where(sql.ref('is_paused'), '=', 0)
    .execute();
  await db.schema.alterTable('deliveries').addColumn('alert_minutes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('deliveries_occurrence_alert_uq').unique().on('deliveries').columns(['reminder_id', 'occurrence_utc', 'destination_id', 'alert_minutes']).execute();
  await db.schema.dropIndex('deliveries_occurrence_uq').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('deliveries').where('alert_minutes', '!=', 0).execute();
  await db.schema.createIndex('deliveries_occurrence_uq').unique().on('deliveries').columns(['reminder_id', 'occurrence_utc', 'destination_id']).execute();
  await db.schema.dropIndex('deliveries_occurrence_alert_uq').execute();
  await db.schema.alterTable('deliveries').dropColumn('alert_minutes').execute();
  await db.schema.dropIndex('reminders_alert_due_idx').execute();
  await db.schema.alterTable('reminders').dropColumn('next_alert_utc').execute();
  await db.schema.alterTable('reminders').dropColumn('alerts').execute();
}
