import type { Kysely } from 'kysely';

/**
 * Custom repetition rules and skipped occurrences (README "Time").
 *
 *  - reminders.rrule: the RFC 5545 RRULE value of a reminder whose recurrence_type is CUSTOM
 *    (null for the eight presets, so every existing row keeps its meaning);
 *  - reminders.exceptions: a JSON array of the ISO instants of skipped occurrences. Kept on the
 *    row because the scheduler needs them with every due reminder it plans, and a reminder has a
 *    handful at most (the service caps them).
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reminders').addColumn('rrule', 'text').execute();
  await db.schema
    .alterTable('reminders')
    .addColumn('exceptions', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reminders').dropColumn('exceptions').execute();
  await db.schema.alterTable('reminders').dropColumn('rrule').execute();
}
