import type { Kysely } from 'kysely';

/**
 * Named leases: which instance holds a job only one may run at a time, such as the Discord
 * gateway connection (README "Running several instances"). The holder renews its lease well
 * before expires_at; when it dies, the lease expires and another instance takes it over.
 * Times are ISO-8601 UTC text. Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leases').execute();
}
