/**
 * Administration from the server's shell (README "Email"): `npm run admin -- <command>`.
 *
 *   reset-password <email>   prints a single-use password-reset link, valid one hour. The way
 *                            to recover an account when the server has no SMTP settings (and a
 *                            fallback when mail does not arrive).
 *
 * Reads the same settings as the server (.env, DATABASE_URL, PUBLIC_URL); migrates the database
 * first like the server does. Exit codes: 0 done, 1 nothing to do (unknown email), 2 bad usage.
 */
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { createDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { issueResetLink, RESET_TTL_MS } from './mail/password-reset.ts';
import { findAccountByEmail } from './repositories/accounts.ts';

const USAGE = 'Usage: npm run admin -- reset-password <email>';

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

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'reset-password' && rest.length === 1 && rest[0]!.trim()) return resetPassword(rest[0]!.trim());
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
