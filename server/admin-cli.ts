/**
 * Administration from the server's shell (README "Email"): `npm run admin -- <command>`.
 *
 *   reset-password <email>   prints a single-use password-reset link, valid one hour. The way
 *                            to recover an account when the server has no SMTP settings (and a
 *                            fallback when mail does not arrive).
 *   copy-from-sqlite <file>  copies a Chime SQLite database into the PostgreSQL database that
 *                            DATABASE_URL names, which must be empty (README "Moving from
 *                            SQLite to PostgreSQL"). Stop Chime first.
 *
 * Reads the same settings as the server (.env, DATABASE_URL, PUBLIC_URL); migrates the database
 * first like the server does. Exit codes: 0 done, 1 nothing done (unknown email, copy refused or failed), 2 bad usage.
 */
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { createDatabase, isPostgresUrl } from './db/connection.ts';
import { CopyRefused, copySqliteToPostgres } from './db/copy-from-sqlite.ts';
import { migrateToLatest } from './db/migrate.ts';
import { issueResetLink, RESET_TTL_MS } from './mail/password-reset.ts';
import { findAccountByEmail } from './repositories/accounts.ts';

const USAGE = 'Usage: npm run admin -- reset-password <email>\n       npm run admin -- copy-from-sqlite <sqlite-file>';

async function resetPassword(email: string): Promise<number> {
  const config = loadConfig();
  const { db } = createDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    const account = await findAccountByEmail(db, email);
    if (!account) {
      console.error(`No account has the email ${email}.`);
      return 1;
    }
    const link = await issueResetLink(db, config, account.id);
    // Printing the link is this command's whole point (the lint rule against console.log guards the server's logs).
    process.stdout.write(
      `Password reset link for ${account.email} (${account.username}):\n${link}\n` +
        `It works once, within ${RESET_TTL_MS / 60_000} minutes, and signs the account out everywhere. Send it to its owner privately.\n`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

async function copyFromSqlite(file: string): Promise<number> {
  const config = loadConfig();
  if (!isPostgresUrl(config.databaseUrl)) {
    console.error('DATABASE_URL names a SQLite file. Set it to the new PostgreSQL database (README "Running on PostgreSQL"), then run this again.');
    return 1;
  }
  const { db } = createDatabase(config.databaseUrl);
  const started = Date.now();
  try {
    const report = await copySqliteToPostgres(file, db, (t) => {
      const nul = t.nulStripped ? ` (${t.nulStripped} with a NUL character removed: PostgreSQL cannot store it)` : '';
      process.stdout.write(`  ${t.table}: ${t.rows} rows${nul}\n`);
    });
    if (report.sourceMigrated.length) process.stdout.write(`Migrated the SQLite file first: ${report.sourceMigrated.join(', ')}\n`);
    const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
    process.stdout.write(
      `Copied ${rows} rows from ${file} into PostgreSQL in ${((Date.now() - started) / 1000).toFixed(1)} s. ` +
        'Start Chime with this DATABASE_URL; keep the SQLite file as a backup.\n',
    );
    return 0;
  } catch (err) {
    console.error(err instanceof CopyRefused ? err.message : `Nothing was copied: ${(err as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'reset-password' && rest.length === 1 && rest[0]!.trim()) return resetPassword(rest[0]!.trim());
  if (command === 'copy-from-sqlite' && rest.length === 1 && rest[0]!.trim()) return copyFromSqlite(rest[0]!.trim());
  console.error(USAGE);
  return 2;
}

loadDotEnv();
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `Failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
