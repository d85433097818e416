import type { Kysely } from 'kysely';

/**
 * sessions.network: the network the session was last seen from (an IPv4 address, or an IPv6 /64,
 * as the login throttle counts them), so the account page can list where it is signed in
 * (docs/security.md "Sessions"). Written at sign-in and with last_used_at (at most every 5
 * minutes). Null for sessions opened before this column.
 *
 * Frozen in time: no application imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('network', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('network').execute();
}
