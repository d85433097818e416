import type { Kysely } from 'kysely';

/**
 * Delivery failures get a stable machine code (WEBHOOK_HTTP_5XX, DISCORD_CANNOT_DM, ...) next to
 * the readable detail, so the dashboard and the bot can translate them and the scheduler no longer
 * stores fields of one destination type (delivery_attempts.discord_code stops being written; the
 * column stays for the rows that have it).
 *
 *  - delivery_attempts.error_code: the code of a failed or retried attempt (null when delivered);
 *  - deliveries.last_error_code: the code of the delivery's latest failure, next to last_error.
 *
 * Attempts already logged with a Discord JSON error code get the code it meant then.
 *
 * Frozen in time: no application imports; the code table is a copy as of this migration.
 */
const DISCORD_CODES: Array<[number, string]> = [
  [50007, 'DISCORD_CANNOT_DM'],
  [10003, 'DISCORD_UNKNOWN_CHANNEL'],
  [10004, 'DISCORD_MISSING_ACCESS'],
  [10013, 'DISCORD_UNKNOWN_USER'],
  [50001, 'DISCORD_MISSING_ACCESS'],
  [50013, 'DISCORD_MISSING_PERMISSIONS'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('delivery_attempts').addColumn('error_code', 'text').execute();
  await db.schema.alterTable('deliveries').addColumn('last_error_code', 'text').execute();
  for (const [discordCode, code] of DISCORD_CODES) {
    await db.updateTable('delivery_attempts').set({ error_code: code }).where('discord_code', '=', discordCode).where('outcome', '!=', 'delivered').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('deliveries').dropColumn('last_error_code').execute();
  await db.schema.alterTable('delivery_attempts').dropColumn('error_code').execute();
}
