import { AppError } from '../errors.ts';

/**
 * A disabled account (docs/operations.md "Administration") signs in nowhere: not with a password, not with
 * Discord, not through the bot. Every way in asks this once it knows the account.
 */
export function refuseDisabledAccount(account: { disabled_at: string | null }): void {
  if (account.disabled_at) throw new AppError('ACCOUNT_DISABLED', 'This account is disabled. Ask the administrator of this Chime instance.');
}
