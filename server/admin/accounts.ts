import { listAccountPasskeys, removeAllPasskeys } from '../accounts/passkeys.ts';
import { closeAccount } from '../accounts/profile.ts';
import { sendSecurityNotice } from '../accounts/security-notices.ts';
import { removeTwoFactor } from '../accounts/two-factor.ts';
import type { DB } from '../db/connection.ts';
import type { MailService } from '../mail/service.ts';
import { nowIso } from '../lib/ids.ts';
import { type AdminAccountRow, findAccountsByKey, listAccountsWithCounts, setAccountDisabledAt } from '../repositories/admin.ts';
import { revokeOtherSessions } from '../repositories/sessions.ts';
import { ACCOUNTS_USAGE } from './usage.ts';
import { AdminFailure, type CommandResult, done, table } from './result.ts';

/*
 * `npm run admin -- accounts list|show|disable|enable|delete|remove-2fa|remove-passkeys`
 * (docs/operations.md "Administration"). An account is named by its id, its email or its username.
 */

/** What a command needs beyond the database: the mail service for security notices (null without email settings). */
export interface AccountsCommandDeps {
  mail: MailService | null;
}

/** The line that says whether the owner was told, for the administrator to pass on otherwise. */
async function noticeLine(db: DB, deps: AccountsCommandDeps, accountId: string, ...notice: [Parameters<typeof sendSecurityNotice>[2], string?]): Promise<{ text: string; mailed: boolean }> {
  const sent = await sendSecurityNotice({ db, mail: deps.mail }, accountId, ...notice);
  if (!sent) return { text: deps.mail ? 'The account has no email address: tell its owner yourself.' : 'Email is not configured: tell the owner yourself.', mailed: false };
  if (sent.ok) return { text: `Mailed a notice to ${sent.to}.`, mailed: true };
  return { text: `The notice to ${sent.to} was not sent (${sent.code}: ${sent.error}): tell the owner yourself.`, mailed: false };
}

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

export async function accountsCommand(
  db: DB,
  args: string[],
  flags: { limit?: string; offset?: string; yes?: boolean },
  deps: AccountsCommandDeps = { mail: null },
): Promise<CommandResult> {
  const [action, key, ...extra] = args;
  const needsKey = ['show', 'disable', 'enable', 'delete', 'remove-2fa', 'remove-passkeys'].includes(action ?? '');
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
    if (!removed) return done(`${account.username} (${account.id}) had no two-factor codes.`, { account, removed, mailed: false });
    const notice = await noticeLine(db, deps, account.id, 'two_factor_disabled');
    return done(`Removed two-factor codes from ${account.username} (${account.id}). ${notice.text}`, { account, removed, mailed: notice.mailed, notice: notice.text });
  }
  if (action === 'remove-passkeys') {
    // For an owner whose passkeys are lost or in someone else's hands, who cannot sign in to remove
    // them: the same offline check of who asks as for two-factor codes (docs/security.md).
    const account = await resolveAccount(db, key!);
    if (!flags.yes) {
      const names = (await listAccountPasskeys(db, account.id)).map((p) => p.name);
      if (!names.length) return done(`${account.username} (${account.id}) has no passkeys: nothing to remove.`, { account, removed: [], mailed: false });
      throw new AdminFailure(
        `This removes the ${names.length} passkey${names.length === 1 ? '' : 's'} of ${account.username} (${account.id}) (${names.join(', ')}): ${names.length === 1 ? 'it' : 'they'} will no longer sign in. Check who is asking first (docs/security.md), then run it again with --yes.`,
        2,
        'CONFIRMATION_REQUIRED',
      );
    }
    const removed = await removeAllPasskeys(db, account.id);
    if (!removed.length) return done(`${account.username} (${account.id}) had no passkeys.`, { account, removed, mailed: false });
    const notice = await noticeLine(db, deps, account.id, 'passkeys_removed_by_admin', removed.join(', '));
    return done(
      `Removed ${removed.length} passkey${removed.length === 1 ? '' : 's'} (${removed.join(', ')}) from ${account.username} (${account.id}). ${notice.text}`,
      { account, removed, mailed: notice.mailed, notice: notice.text },
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
