/**
 * Discord users get a Chime account the first time they use the bot: no email, UTC, and a
 * discord identity whose external_id is the Discord user id. Signing in on the dashboard with
 * Discord later matches that identity, so both land in the same account.
 */
import type { Account } from '../server/db/database.ts';
import type { DB } from '../server/db/connection.ts';
import { addIdentity, createAccount, findAccountById, findIdentityByExternalId, isUniqueViolation, updateAccount } from '../server/repositories/accounts.ts';

export interface DiscordUserLike {
  id: string;
  username: string;
}

export async function findAccountForDiscordUser(db: DB, discordUserId: string): Promise<Account | undefined> {
  const identity = await findIdentityByExternalId(db, 'discord', discordUserId);
  return identity ? findAccountById(db, identity.account_id) : undefined;
}

export async function ensureAccountForDiscordUser(db: DB, user: DiscordUserLike, locale: string | null): Promise<Account> {
  const existing = await findAccountForDiscordUser(db, user.id);
  if (existing) {
    if (!existing.locale && locale) {
      await updateAccount(db, existing.id, { locale });
      return { ...existing, locale };
    }
    return existing;
  }
  const username = (user.username || `discord-${user.id}`).slice(0, 64);
  try {
    return await db.transaction().execute(async (trx) => {
      const account = await createAccount(trx, { email: null, username, timezone: 'UTC', locale });
      await addIdentity(trx, { account_id: account.id, provider: 'discord', external_id: user.id, username: user.username });
      return account;
    });
  } catch (err) {
    // Two interactions of a brand-new user at once: the other one created the account.
    if (isUniqueViolation(err)) {
      const again = await findAccountForDiscordUser(db, user.id);
      if (again) return again;
    }
    throw err;
  }
}
