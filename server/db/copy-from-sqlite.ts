/**
 * Moves a Chime SQLite database into an empty PostgreSQL database (docs/operations.md "Moving from SQLite to PostgreSQL"; `npm run admin -- copy-from-sqlite <file>`), for a deployment that outgrew one
 * machine. Every row is copied as stored: both databases hold instants as ISO text and booleans
 * as 0/1 (database.ts), so nothing is converted, and every reminder keeps the date, time, zone and
 * rule its owner chose. Accounts, sessions (nobody is signed out), reminders, destinations with
 * their secrets, the outbox and the delivery log, throttles and rate windows all come along.
 *
 * The copy is one PostgreSQL transaction, from one SQLite read transaction: it lands whole or not
 * at all, and it refuses a target that already holds data.
 */
import { existsSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { migrateToLatest } from './migrate.ts';
import { openSqlite } from './connection.ts';

/** Why a copy was refused; nothing was written to the target. */
export class CopyRefused extends Error {}

/** Not copied: which instance holds a job (the gateway) means nothing to the new deployment. */
const SKIPPED_TABLES = new Set(['leases']);

/**
 * Values that describe the old process rather than the data, set afresh:
 * - `list_version` moves by SQLite triggers only and is always 0 on PostgreSQL (database.ts);
 * - a delivery's lease names the SQLite process, which is stopped: the rows are free to claim at once.
 */
const RESET_COLUMNS: Record<string, Record<string, unknown>> = {
  accounts: { list_version: 0 },
  deliveries: { lease_owner: null, lease_expires_at: null },
};

/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;
const MAX_BATCH_ROWS = 500;

export interface TableCopy {
  table: string;
  rows: number;
  /** Text values that held U+0000, which PostgreSQL text cannot store: the character was removed. */
  nulStripped: number;
}

export interface CopyReport {
  tables: TableCopy[];
  /** Migrations the SQLite file lacked and that ran on it first (it was written by an older Chime). */
  sourceMigrated: string[];
}

/** Refuses anything that is not a Chime SQLite database, before touching it. */
function checkIsChimeDatabase(file: string): void {
  if (!existsSync(file) || !statSync(file).isFile()) throw new CopyRefused(`${file} does not exist or is not a file.`);
  let sqlite: SQLite.Database | undefined;
  try {
    sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
    const names = sqlite.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
    if (!names.includes('kysely_migration') || !names.includes('accounts')) throw new CopyRefused(`${file} is not a Chime database.`);
  } catch (err) {
    if (err instanceof CopyRefused) throw err;
    throw new CopyRefused(`${file} cannot be read as SQLite: ${(err as Error).message}`);
  } finally {
    sqlite?.close();
  }
}

/** The tables to copy, parents before children (foreign keys), read from the SQLite schema. */
function tablesInDependencyOrder(sqlite: SQLite.Database): string[] {
  const tables = (sqlite.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all() as string[]).filter(
    (t) => !t.startsWith('sqlite_') && !t.startsWith('kysely_') && !SKIPPED_TABLES.has(t),
  );
  const parents = new Map(
    tables.map((t) => [t, (sqlite.prepare('select "table" from pragma_foreign_key_list(?)').pluck().all(t) as string[]).filter((p) => p !== t)]),
  );
  const ordered: string[] = [];
  const visit = (t: string, path: string[]) => {
    if (ordered.includes(t)) return;
    if (path.includes(t)) throw new Error(`foreign keys form a cycle: ${[...path, t].join(' -> ')}`);
    for (const p of parents.get(t) ?? []) if (tables.includes(p)) visit(p, [...path, t]);
    ordered.push(t);
  };
  for (const t of tables) visit(t, []);
  return ordered;
}

const columnsOf = (sqlite: SQLite.Database, table: string) => sqlite.prepare('select name from pragma_table_info(?) order by cid').pluck().all(table) as string[];

/** U+0000 cannot be stored in PostgreSQL text; older Chime versions let it into SQLite. */
function stripNul(row: Record<string, unknown>): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'string' && value.includes('\u0000')) {
      row[key] = value.replaceAll('\u0000', '');
      changed = true;
    }
  }
  return changed;
}

async function checkEmpty(trx: Kysely<any>, tables: string[]): Promise<void> {
  for (const table of tables) {
    const row = await trx.selectFrom(table).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
    if (row) throw new CopyRefused(`The PostgreSQL database already has data (table ${table}). Copy into a new, empty database.`);
  }
}

/** Identity columns continue after the copied ids, so the next row PostgreSQL numbers does not collide. */
async function advanceIdentities(trx: Kysely<any>, tables: string[]): Promise<void> {
  const identities = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and is_identity = 'YES'`.execute(trx);
  for (const { table_name: table, column_name: column } of identities.rows) {
    if (!tables.includes(table)) continue;
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), max(${sql.ref(column)})) from ${sql.table(table)} having max(${sql.ref(column)}) is not null`.execute(
      trx,
    );
  }
}

async function copyTable(sqlite: SQLite.Database, trx: Kysely<any>, table: string, targetColumns: string[]): Promise<TableCopy> {
  const columns = columnsOf(sqlite, table);
  if (columns.slice().sort().join() !== targetColumns.slice().sort().join()) {
    throw new Error(`table ${table} has columns ${columns.join(', ')} in SQLite but ${targetColumns.join(', ')} in PostgreSQL`);
  }
  const reset = RESET_COLUMNS[table] ?? {};
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const copy: TableCopy = { table, rows: 0, nulStripped: 0 };
  let batch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await trx.insertInto(table).values(batch).execute();
    copy.rows += batch.length;
    batch = [];
  };
  // rowid order: the order rows were written, so identity ids and timestamps go in ascending.
  for (const row of sqlite.prepare(`select * from "${table}" order by rowid`).iterate() as IterableIterator<Record<string, unknown>>) {
    if (stripNul(row)) copy.nulStripped += 1;
    batch.push({ ...row, ...reset });
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  const counted = await trx.selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  if (Number(counted.n) !== copy.rows) throw new Error(`table ${table}: ${copy.rows} rows copied but ${counted.n} found`);
  return copy;
}

/**
 * Copies the Chime SQLite database in `file` into `target`, a PostgreSQL database that must hold
 * no Chime data yet (its tables are created by the migrations first). An SQLite file written by an
 * older Chime is migrated in place first, as starting Chime on it would. Chime must not be running
 * on the SQLite file: writes made during the copy would not be in it.
 */
export async function copySqliteToPostgres(
  file: string,
  target: Kysely<any>,
  onTable: (copy: TableCopy) => void = () => {},
): Promise<CopyReport> {
  checkIsChimeDatabase(file);
  const source = openSqlite(file);
  let sourceMigrated: string[];
  try {
    sourceMigrated = await migrateToLatest(source.db);
  } finally {
    await source.db.destroy();
  }
  await migrateToLatest(target);
  const targetColumns = new Map((await target.introspection.getTables()).map((t) => [t.name, t.columns.map((c) => c.name)]));

  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = tablesInDependencyOrder(sqlite);
    const missing = tables.filter((t) => !targetColumns.has(t));
    if (missing.length > 0) throw new Error(`tables missing in PostgreSQL after migrating: ${missing.join(', ')}`);
    const copied = await target.transaction().execute(async (trx) => {
      await checkEmpty(trx, tables);
      // One read transaction: every table is read as of the same moment.
      sqlite.exec('begin');
      try {
        const done: TableCopy[] = [];
        for (const table of tables) {
          const copy = await copyTable(sqlite, trx, table, targetColumns.get(table)!);
          done.push(copy);
          onTable(copy);
        }
        await advanceIdentities(trx, tables);
        return done;
      } finally {
        sqlite.exec('rollback');
      }
    });
    return { tables: copied, sourceMigrated };
  } finally {
    sqlite.close();
  }
}
