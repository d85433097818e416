// Runs on PostgreSQL only: prepared statements are PostgreSQL's.
/**
 * The statements Chime sends often are prepared under a name, once per connection
 * (server/db/pg-statement-names.ts), and a schema changed by another instance does not break them.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../server/db/connection.ts';
import { DatabaseBusyError } from '../../../../server/db/database-busy.ts';
import { createPostgresDatabase, dropPostgresDatabase, onPostgres } from '../../../helpers/test-database.ts';

let url: string;
let handle: DatabaseHandle | null = null;
beforeAll(() => {
  if (!onPostgres) throw new Error('run this file in the postgres project (CHIME_TEST_DB=postgres)');
});
afterEach(async () => {
  await handle?.db.destroy();
  handle = null;
  if (url) await dropPostgresDatabase(url);
});

/** One connection, so that every statement and pg_prepared_statements see the same session. */
async function open(preparedStatements: boolean): Promise<DatabaseHandle> {
  url = await createPostgresDatabase({ migrated: true });
  handle = createDatabase(url, { poolSize: 1, preparedStatements });
  return handle;
}

const prepared = async (h: DatabaseHandle) =>
  (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(h.db)).rows;

const accountById = (h: DatabaseHandle, id: string) => h.db.selectFrom('accounts').selectAll().where('id', '=', id).execute();

async function onAnotherConnection(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('prepared statements on PostgreSQL', () => {
  it('prepares a statement sent again under a name, once per connection', async () => {
    const h = await open(true);
    await accountById(h, 'a');
    expect(await prepared(h)).toEqual([]);
    await accountById(h, 'b');
    await accountById(h, 'c');
    expect(await prepared(h)).toEqual([{ name: expect.stringMatching(/^chime_\d+$/), statement: expect.stringContaining('from "accounts" where "id" = $1') }]);
  });

  it('sends every statement unnamed with DATABASE_PREPARED_STATEMENTS=false (a pooler that cannot keep them)', async () => {
    const h = await open(false);
    for (const id of ['a', 'b', 'c']) await accountById(h, id);
    expect(await prepared(h)).toEqual([]);
  });

  it('a column added by another instance: a statement alone runs again and answers the new shape', async () => {
    const h = await open(true);
    await accountById(h, 'a');
    await accountById(h, 'a');
    await onAnotherConnection('alter table accounts add column added_by_a_newer_version text');
    const rows = await h.db.selectFrom('accounts').selectAll().where('id', '=', 'a').execute();
    expect(rows).toEqual([]);
    // The connection whose statements went stale was replaced: the same statement works on.
    await expect(accountById(h, 'b')).resolves.toEqual([]);
  });

  it('inside a transaction the stale statement answers DATABASE_BUSY (the transaction is over), and the next try works', async () => {
    const h = await open(true);
    await accountById(h, 'a');
    await accountById(h, 'a');
    await onAnotherConnection('alter table accounts add column added_by_a_newer_version text');
    await expect(h.db.transaction().execute((trx) => trx.selectFrom('accounts').selectAll().where('id', '=', 'a').execute())).rejects.toBeInstanceOf(DatabaseBusyError);
    await expect(h.db.transaction().execute((trx) => trx.selectFrom('accounts').selectAll().where('id', '=', 'a').execute())).resolves.toEqual([]);
  });
});
