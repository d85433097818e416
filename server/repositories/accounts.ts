import type { SelectQueryBuilder } from 'kysely';
import type { Account, Database, Identity, IdentityProvider } from '../db/database.ts';
import { newId, nowIso } from '../lib/ids.ts';
import { deleteAccountEmailData, moveAccountEmailData } from './email.ts';
import type { Executor } from './executor.ts';
import { prepared } from './prepared.ts';
import { takesRowLocks } from './statement-batches.ts';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const accountById = prepared(['id'], (db, p: { id: string }) => db.selectFrom('accounts').selectAll().where('id', '=', p.id));

export async function findAccountById(db: Executor, id: string): Promise<Account | undefined> {
  return (await accountById(db, { id })).rows[0];
}

export async function findAccountByEmail(db: Executor, email: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('email_normalized', '=', normalizeEmail(email)).executeTakeFirst();
}

const identitiesOfAccount = prepared(['accountId'], (db, p: { accountId: string }) =>
  db.selectFrom('identities').selectAll().where('account_id', '=', p.accountId).orderBy('created_at'),
);

export async function listIdentities(db: Executor, accountId: string): Promise<Identity[]> {
  return (await identitiesOfAccount(db, { accountId })).rows;
}

export async function findIdentity(db: Executor, accountId: string, provider: IdentityProvider): Promise<Identity | undefined> {
  return db.selectFrom('identities').selectAll().where('account_id', '=', accountId).where('provider', '=', provider).executeTakeFirst();
}

export async function findIdentityByExternalId(db: Executor, provider: IdentityProvider, externalId: string): Promise<Identity | undefined> {
  return db.selectFrom('identities').selectAll().where('provider', '=', provider).where('external_id', '=', externalId).executeTakeFirst();
}

export async function createAccount(
  db: Executor,
  input: { email: string | null; username: string; timezone: string; locale?: string | null },
): Promise<Account> {
  const now = nowIso();
  const account: Account = {
    id: newId(),
    email: input.email?.trim() ?? null,
    email_normalized: input.email ? normalizeEmail(input.email) : null,
    username: input.username.trim(),
    timezone: input.timezone,
    locale: input.locale ?? null,
    list_version: 0,
    disabled_at: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('accounts').values(account).execute();
  return account;
}

/**
 * Inside a transaction: makes other transactions that call this for the same account wait until
 * this one ends, so a count read next (its reminders, its mails of the hour) is still true when
 * this transaction writes. On PostgreSQL a row lock that leaves inserts referring to the account
 * free (FOR NO KEY UPDATE); SQLite runs one writing transaction at a time already.
 */
export async function lockAccountForWrites(trx: Executor, accountId: string): Promise<void> {
  if (takesRowLocks(trx)) await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
}

/** See AccountsTable.list_version; undefined when the account is gone. */
// Read before every reminder list (the list cache's token).
const listVersionOf = prepared(['id'], (db, p: { id: string }) => db.selectFrom('accounts').select('list_version').where('id', '=', p.id));

export async function reminderListVersion(db: Executor, accountId: string): Promise<number | undefined> {
  return (await listVersionOf(db, { id: accountId })).rows[0]?.list_version;
}

export async function addIdentity(
  db: Executor,
  input: Omit<Identity, 'id' | 'created_at' | 'updated_at' | 'dm_channel_id' | 'access_token' | 'refresh_token' | 'token_expires_at' | 'scope' | 'password_hash'> &
    Partial<Pick<Identity, 'password_hash' | 'access_token' | 'refresh_token' | 'token_expires_at' | 'scope'>>,
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('identities')
    .values({
      id: newId(),
      password_hash: null,
      access_token: null,
      refresh_token: null,
      token_expires_at: null,
      scope: null,
      dm_channel_id: null,
      created_at: now,
      updated_at: now,
      ...input,
    })
    .execute();
}

/** The OAuth grant columns of a Discord identity. */
export type IdentityGrant = Pick<Identity, 'access_token' | 'refresh_token' | 'token_expires_at' | 'scope'>;

/**
 * Inserts an account without email and the Discord identity it is known by. Two inserts: pass a
 * transaction so both land or neither does.
 */
export async function createDiscordAccount(
  db: Executor,
  input: {
    username: string;
    timezone: string;
    locale: string | null;
    discordUserId: string;
    discordUsername: string | null;
    grant?: Partial<IdentityGrant> | undefined;
  },
): Promise<Account> {
  const account = await createAccount(db, { email: null, username: input.username, timezone: input.timezone, locale: input.locale });
  await addIdentity(db, { account_id: account.id, provider: 'discord', external_id: input.discordUserId, username: input.discordUsername, ...input.grant });
  return account;
}

export async function findIdentityById(db: Executor, id: string): Promise<Identity | undefined> {
  return db.selectFrom('identities').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateIdentityById(db: Executor, id: string, patch: Partial<Omit<Identity, 'id' | 'account_id' | 'provider'>>) {
  await db.updateTable('identities').set({ ...patch, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function updateAccount(db: Executor, id: string, patch: Partial<Pick<Account, 'email' | 'email_normalized' | 'username' | 'timezone' | 'locale'>>) {
  await db.updateTable('accounts').set({ ...patch, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function updateIdentity(db: Executor, accountId: string, provider: IdentityProvider, patch: Partial<Omit<Identity, 'id' | 'account_id' | 'provider'>>) {
  await db
    .updateTable('identities')
    .set({ ...patch, updated_at: nowIso() })
    .where('account_id', '=', accountId)
    .where('provider', '=', provider)
    .execute();
}

/** The ids of the deliveries of these reminders (deliveries_occurrence_alert_uq leads with reminder_id). */
function deliveryIdsOf(db: Executor, reminderIds: SelectQueryBuilder<Database, 'reminders', { id: string }>) {
  return db.selectFrom('deliveries').select('deliveries.id').where('deliveries.reminder_id', 'in', reminderIds);
}

/**
 * Removes the account and everything that belongs to it in one transaction. Rows are deleted
 * child-first explicitly rather than relying on ON DELETE CASCADE alone, so the behaviour does
 * not depend on the foreign-key pragma being on.
 */
export async function deleteAccount(db: Executor, id: string) {
  const reminderIds = db.selectFrom('reminders').select('id').where('account_id', '=', id);
  // By reminder, then by delivery: neither deliveries nor the delivery log is indexed by account.
  await db.deleteFrom('delivery_attempts').where('delivery_id', 'in', deliveryIdsOf(db, reminderIds)).execute();
  await db.deleteFrom('deliveries').where('reminder_id', 'in', reminderIds).execute();
  // "Remind me too": those who follow its reminders, and what it follows of others' (its DM destinations there).
  await db.deleteFrom('reminder_subscriptions').where('reminder_id', 'in', reminderIds).execute();
  const followed = db.selectFrom('reminder_subscriptions').select('destination_id').where('account_id', '=', id);
  await db
    .deleteFrom('delivery_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('deliveries').select('deliveries.id').where('deliveries.destination_id', 'in', followed))
    .execute();
  await db.deleteFrom('deliveries').where('destination_id', 'in', followed).execute();
  const followedIds = (await followed.execute()).map((r) => r.destination_id);
  await db.deleteFrom('reminder_subscriptions').where('account_id', '=', id).execute();
  if (followedIds.length > 0) await db.deleteFrom('destinations').where('id', 'in', followedIds).execute();
  await db.deleteFrom('destinations').where('reminder_id', 'in', reminderIds).execute();
  await db.deleteFrom('reminders').where('account_id', '=', id).execute();
  await db.deleteFrom('sessions').where('account_id', '=', id).execute();
  await deleteAccountEmailData(db, id);
  await db.deleteFrom('identities').where('account_id', '=', id).execute();
  await db.deleteFrom('accounts').where('id', '=', id).execute();
}

/**
 * Moves the reminders, the delivery rows and the Discord identity of account `fromId` to
 * `intoId`, then deletes `fromId` with its sessions and any other identity. Pass a transaction.
 */
export async function moveAccountInto(db: Executor, fromId: string, intoId: string) {
  // The delivery rows first, found through the reminders while these still belong to `fromId`.
  const reminderIds = db.selectFrom('reminders').select('id').where('account_id', '=', fromId);
  await db.updateTable('delivery_attempts').set({ account_id: intoId }).where('delivery_id', 'in', deliveryIdsOf(db, reminderIds)).execute();
  await db.updateTable('deliveries').set({ account_id: intoId }).where('reminder_id', 'in', reminderIds).execute();
  await db.updateTable('reminders').set({ account_id: intoId }).where('account_id', '=', fromId).execute();
  await db.updateTable('identities').set({ account_id: intoId, updated_at: nowIso() }).where('account_id', '=', fromId).where('provider', '=', 'discord').execute();
  await db.deleteFrom('sessions').where('account_id', '=', fromId).execute();
  await moveAccountEmailData(db, fromId, intoId);
  await db.deleteFrom('identities').where('account_id', '=', fromId).execute();
  await db.deleteFrom('accounts').where('id', '=', fromId).execute();
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
