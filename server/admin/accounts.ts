import { closeAccount } from '../accounts/profile.ts';
import { removeTwoFactor } from '../accounts/two-factor.ts';
import type { DB } from '../db/connection.ts';
import { nowIso } from '../lib/ids.ts';
import { type AdminAccountRow, findAccountsByKey, listAccountsWithCounts, setAccountDisabledAt } from '../repositories/admin.ts';
import { revokeOtherSessions } from '../repositories/sessions.ts';
import { AdminFailure, type CommandResult, done, table } from './result.ts';

/*
 * `npm run admin -- accounts list|show|disable|enable|delete` (docs/operations.md "Administration"). An
 * account is named by its id, its email or its username.
 */

/** The one account `key` names; fails when none or several (a username two accounts share). */
export async function resolveAccount(db: DB, key: string): Promise<AdminAccountRow> {
  const found = await findAccountsByKey(db, key);
  if (found.length === 0) throw new AdminFailure(`No account has the id, email or username "${key}".`, 1, 'ACCOUNT_NOT_FOUND');
  if (found.length > 1) {
    throw new AdminFailure(`${found.length} accounts answer to "${key}" (${found.map((a) => a.id).join(', ')}); name one by its id.`, 1, 'ACCOUNT_AMBIGUOUS');
  }
  return found[0]!;
}

/**
 * Disables the account: it can no longer sign in, its open sessions end now, its reminders stop
 * firing (the scheduler skips accounts with disabled_at). Nothing is deleted or paused, so
 * enabling it again restores everything as it was.
 */
export async function disableAccount(db: DB, key: string): Promise<AdminAccountRow> {
  const account = await resolveAccount(db, key);
  if (account.disabled_at) return account;
  const disabledAt = nowIso();
  await db.transaction().execute(async (trx) => {
    await setAccountDisabledAt(trx, account.id, disabledAt);
    await revokeOtherSessions(trx, account.id, null);
  });
  return { ...account, disabled_at: disabledAt };
}

/** Enables the account again: sign-in works and its reminders fire from the next occurrence due. */
export async function enableAccount(db: DB, key: string): Promise<AdminAccountRow> {
  const account = await resolveAccount(db, key);
  if (!account.disabled_at) return account;
  await setAccountDisabledAt(db, account.id, null);
  return { ...account, disabled_at: null };
}

const describe = (a: AdminAccountRow) =>
  [
    `id:         ${a.id}`,
    `username:   ${a.username}`,
    `email:      ${a.email ?? '(none)'}`,
    `sign-in:    ${a.providers ?? '(none)'}`,
    `time zone:  ${a.timezone}`,
    `created:    ${a.created_at}`,
    `status:     ${a.disabled_at ? `disabled since ${a.disabled_at}` : 'enabled'}`,
    `reminders:  ${a.reminders}`,
  ].join('\n');

export const ACCOUNTS_USAGE =
  'accounts list [--limit N] [--offset N] | accounts show <account> | accounts disable <account> | accounts enable <account> | accounts delete <account> --yes | accounts remove-2fa <account> --yes';

export async function accountsCommand(db: DB, args: string[], flags: { limit?: string; offset?: string; yes?: boolean }): Promise<CommandResult> {
  const [action, key, ...extra] = args;
  const needsKey = ['show', 'disable', 'enable', 'delete', 'remove-2fa'].includes(action ?? '');
  if (!action || (needsKey && (!key || extra.length > 0)) || (!needsKey && action !== 'list') || (action === 'list' && args.length > 1)) {
    throw new AdminFailure(`Usage: npm run admin -- ${ACCOUNTS_USAGE}`, 2, 'USAGE');
  }
  if (action === 'list') {
    const limit = Number(flags.limit ?? 100);
    const offset = Number(flags.offset ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) throw new AdminFailure('--limit must be a whole number from 1 and --offset from 0.', 2, 'USAGE');
    const accounts = await listAccountsWithCounts(db, limit, offset);
    const text = accounts.length
      ? table(
          ['ID', 'USERNAME', 'EMAIL', 'SIGN-IN', 'REMINDERS', 'STATUS', 'CREATED'],
          accounts.map((a) => [a.id, a.username, a.email ?? '-', a.providers ?? '-', String(a.reminders), a.disabled_at ? 'disabled' : 'enabled', a.created_at.slice(0, 10)]),
        )
      : offset > 0
        ? 'No more accounts.'
        : 'No accounts yet.';
    return done(text, { accounts });
  }
  if (action === 'show') {
    const account = await resolveAccount(db, key!);
    return done(describe(account), { account });
  }
  if (action === 'disable') {
    const account = await disableAccount(db, key!);
    return done(`Disabled ${account.username} (${account.id}): it cannot sign in and its reminders do not fire until enabled again.`, { account });
  }
  if (action === 'enable') {
    const account = await enableAccount(db, key!);
    return done(`Enabled ${account.username} (${account.id}): it can sign in and its reminders fire again.`, { account });
  }
  if (action === 'remove-2fa') {
    // For an owner who lost their phone and their recovery codes: docs/security.md says to check
    // who asks offline first. Their password still protects the account; they can set codes up again.
    const account = await resolveAccount(db, key!);
    if (!flags.yes) {
      throw new AdminFailure(
        `This turns two-factor codes off for ${account.username} (${account.id}): signing in will ask for the password only. Check who is asking first (docs/security.md), then run it again with --yes.`,
        2,
        'CONFIRMATION_REQUIRED',
      );
    }
    const removed = await removeTwoFactor(db, account.id);
    return done(
      removed ? `Removed two-factor codes from ${account.username} (${account.id}).` : `${account.username} (${account.id}) had no two-factor codes.`,
      { account, removed },
    );
  }
  const account = await resolveAccount(db, key!);
  if (!flags.yes) {
    throw new AdminFailure(
      `This deletes ${account.username} (${account.id}) with its ${account.reminders} reminders, their history and its sign-in methods, for good. Run it again with --yes to do it.`,
      2,
      'CONFIRMATION_REQUIRED',
    );
  }
  await closeAccount(db, account.id);
  return done(`Deleted ${account.username} (${account.id}) and its ${account.reminders} reminders.`, { deleted: account });
}
