import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { createDatabase, type DB } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: DB;
    config: Config;
    /** Cheap liveness probe for /healthz. */
    checkDatabase(): Promise<boolean>;
    /** See DatabaseHandle.changeToken: moves on every write. */
    dbChangeToken(): string;
  }
}

export default fp<{ config: Config }>(
  async (app, { config }) => {
    const { db, changeToken } = createDatabase(config.databaseUrl);
    const applied = await migrateToLatest(db);
    if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
    app.decorate('db', db);
    app.decorate('config', config);
    app.decorate('dbChangeToken', changeToken);
    app.decorate('checkDatabase', async () => {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    });
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'database' },
);
