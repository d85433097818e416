/**
 * Administration from the server's shell (docs/operations.md "Administration"): `npm run admin -- <command>`.
 *
 *   accounts list|show|disable|enable|delete|remove-2fa|remove-passkeys
 *                            the instance's accounts (server/admin/accounts.ts); removing two-factor
 *                            codes or passkeys mails the owner a notice where email is configured
 *   stats                    accounts, reminders, the last day's deliveries, what waits
 *   doctor                   checks every setting against what it names, says how to fix it
 *   backup [file]            an online copy of the SQLite database (pg_dump on PostgreSQL)
 *   restore <file>           puts a backup in place of the SQLite database; Chime must be stopped
 *   reset-password <email>   prints a single-use password-reset link, valid one hour. The way
 *                            to recover an account when the server has no SMTP settings (and a
 *                            fallback when mail does not arrive).
 *   copy-from-sqlite <file>  copies a Chime SQLite database into the PostgreSQL database that
 *                            DATABASE_URL names, which must be empty (docs/operations.md "Moving from SQLite to PostgreSQL"). Stop Chime first.
 *
 * Reads the same settings as the server (.env, DATABASE_URL, PUBLIC_URL). accounts, stats,
 * reset-password and copy-from-sqlite migrate the database first like the server does; doctor,
 * backup and restore leave it as it is. `--json` prints one JSON object instead of text.
 * Exit codes: 0 done (doctor: nothing failed), 1 nothing done or a check failed, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { AdminFailure, type CommandResult } from './admin/result.ts';
import { USAGE } from './admin/usage.ts';
import { type Config, ConfigError, loadConfig, loadDotEnv } from './config.ts';
import type { DB } from './db/connection.ts';
import type { MailService } from './mail/service.ts';

// Each command imports what it needs when it runs: loading every command's packages (the mailer,
// the HTTP client of doctor's checks, two-factor's QR codes, the password hasher) took most of
// the second a command needed before it did anything.

async function resetPassword(email: string): Promise<number> {
  const [{ createDatabase }, { migrateToLatest }, { findAccountByEmail }, { issueResetLink, RESET_TTL_MS }] = await Promise.all([
    import('./db/connection.ts'),
    import('./db/migrate.ts'),
    import('./repositories/accounts.ts'),
    import('./mail/password-reset.ts'),
  ]);
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
  const [{ createDatabase, isPostgresUrl }, { CopyRefused, copySqliteToPostgres }] = await Promise.all([import('./db/connection.ts'), import('./db/copy-from-sqlite.ts')]);
  const config = loadConfig();
  if (!isPostgresUrl(config.databaseUrl)) {
    console.error('DATABASE_URL names a SQLite file. Set it to the new PostgreSQL database (docs/operations.md "Running on PostgreSQL"), then run this again.');
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

/** A subcommand over the migrated database, closed afterwards. */
async function withMigratedDatabase(config: Config, run: (db: DB) => Promise<CommandResult>): Promise<CommandResult> {
  const [{ createDatabase }, { migrateToLatest }] = await Promise.all([import('./db/connection.ts'), import('./db/migrate.ts')]);
  const { db } = createDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    return await run(db);
  } finally {
    await db.destroy();
  }
}

/** The mail service of the server's settings (null without them), closed afterwards: security notices wait for their send. */
async function withMail<T>(config: Config, db: DB, run: (mail: MailService | null) => Promise<T>): Promise<T> {
  if (!config.mail) return run(null);
  const [{ createMailService }, { createMailer }] = await Promise.all([import('./mail/service.ts'), import('./mail/transport.ts')]);
  const mailer = createMailer(config.mail);
  try {
    return await run(createMailService(db, config.mail, mailer));
  } finally {
    await mailer.close();
  }
}

async function structured(command: string, rest: string[], flags: { json?: boolean; yes?: boolean; limit?: string; offset?: string }): Promise<CommandResult | null> {
  if (command === 'accounts') {
    const config = loadConfig();
    const { accountsCommand } = await import('./admin/accounts.ts');
    return withMigratedDatabase(config, (db) => withMail(config, db, (mail) => accountsCommand(db, rest, flags, { mail })));
  }
  if (command === 'stats' && rest.length === 0) {
    const { statsCommand } = await import('./admin/stats.ts');
    return withMigratedDatabase(loadConfig(), (db) => statsCommand(db));
  }
  if (command === 'doctor' && rest.length === 0) return (await import('./admin/doctor.ts')).doctorCommand(loadConfig());
  if (command === 'backup') return (await import('./admin/backup.ts')).backupCommand(loadConfig(), rest);
  if (command === 'restore') return (await import('./admin/backup.ts')).restoreCommand(loadConfig(), rest);
  return null;
}

function print(result: CommandResult, json: boolean): void {
  // Printing is this command's whole point (the lint rule against console.log guards the server's logs).
  if (json) process.stdout.write(`${JSON.stringify(result.data, null, 2)}\n`);
  else process.stdout.write(`${result.text}\n`);
}

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, yes: { type: 'boolean' }, limit: { type: 'string' }, offset: { type: 'string' } },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const json = parsed.values.json === true;
  try {
    const result = command ? await structured(command, rest, parsed.values) : null;
    if (result) {
      print(result, json);
      return result.exitCode;
    }
  } catch (err) {
    if (!(err instanceof AdminFailure)) throw err;
    if (json) process.stdout.write(`${JSON.stringify({ error: err.message, code: err.code }, null, 2)}\n`);
    else console.error(err.message);
    return err.exitCode;
  }
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
