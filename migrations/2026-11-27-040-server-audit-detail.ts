import type { Kysely } from 'kysely';

/**
 * server_audit.detail: what changed as data, JSON `{ kind, params }` (docs/servers.md "Audit log"),
 * so the dashboard words an entry in the reader's language. `summary` stays, in English, for API
 * readers and for entries written before this column.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('server_audit').addColumn('detail', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('server_audit').dropColumn('detail').execute();
}
