import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createDatabase, type DatabaseDialect, type DB } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { Arrival } from '../db/wait-budget.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: DB;
    /** Which engine DATABASE_URL chose; what differs between them is said where it is used. */
    dbDialect: DatabaseDialect;
    config: Config;
    /** Cheap liveness probe for /healthz: 'ok', 'degraded' (another process holds the write lock), or 'unavailable'. */
    checkDatabase(): Promise<'ok' | 'degraded' | 'storage-full' | 'unavailable'>;
    /** See DatabaseHandle.freshChangeToken: exact across instances; what read caches check. */
    dbFreshChangeToken(): Promise<string>;
    /** See DatabaseHandle.accountChangeToken: the same for one account's things (PostgreSQL). */
    dbAccountChangeToken(accountId: string): Promise<string>;
    /** See DatabaseHandle.accountAndSessionTokens: the account's and its sessions' in one round trip. */
    dbAccountAndSessionTokens(accountId: string): Promise<{ account: string; sessions: string }>;
    /** See DatabaseHandle.watchChanges: another process wrote (LISTEN/NOTIFY on PostgreSQL). */
    dbWatchChanges(onChange: () => void): () => void;
  }
}

export default fp<{ config: Config }>(
  async (app, { config }) => {
    const { db, dialect, freshChangeToken, accountChangeToken, accountAndSessionTokens, watchChanges, busy, probe } = createDatabase(config.databaseUrl, {
      poolSize: config.databasePoolSize,
      preparedStatements: config.databasePreparedStatements,
    });
    const applied = await migrateToLatest(db, {
      onBackup: (file) => app.log.info({ backup: file }, 'database backed up before migrating'),
    });
    if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
    app.decorate('db', db);
    app.decorate('dbDialect', dialect);
    app.decorate('config', config);
    app.decorate('dbFreshChangeToken', freshChangeToken);
    app.decorate('dbAccountChangeToken', accountChangeToken);
    app.decorate('dbAccountAndSessionTokens', accountAndSessionTokens);
    app.decorate('dbWatchChanges', watchChanges);
    // Not queued behind queries waiting for a lock or a connection (see DatabaseHandle.probe).
    app.decorate('checkDatabase', async () => {
      if (!(await probe())) return 'unavailable' as const;
      // A write failed on a full disk in the last minute: reads work, writes do not.
      if (busy.lastFullAt > 0 && Date.now() - busy.lastFullAt < 60_000) return 'storage-full' as const;
      return busy.waiting > 0 || Date.now() - busy.lastBusyAt < 10_000 ? ('degraded' as const) : ('ok' as const);
    });
    // A request's waits for the database are bounded from its arrival (wait-budget.ts). The clock
    // starts at onRequest; the work runs inside the arrival from preValidation on, after the body is
    // read (the body's stream events would not carry it).
    const arrivals = new WeakMap<object, Arrival>();
    app.addHook('onRequest', (request, _reply, done) => {
      arrivals.set(request, new Arrival());
      done();
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const arrival = arrivals.get(request);
      if (arrival) arrival.run(done);
      else done();
    });
    const answered = (request: object) => {
      const arrival = arrivals.get(request);
      if (arrival) arrival.answered = true;
    };
    app.addHook('onResponse', async (request) => answered(request));
    app.addHook('onRequestAbort', async (request) => answered(request));
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'database' },
);
