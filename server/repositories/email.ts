import type { Database } from '../db/database.ts';
import type { Selectable } from 'kysely';
import type { Executor } from './executor.ts';

export type EmailAddress = Selectable<Database['email_addresses']>;
export type EmailSendKind = Database['email_sends']['kind'];

// --- password-reset links ------------------------------------------------------------------------

export async function insertResetToken(db: Executor, row: { token_hash: string; account_id: string; created_at: string; expires_at: string }) {
  await db.insertInto('password_reset_tokens').values({ ...row, used_at: null }).execute();
}

export async function findResetToken(db: Executor, tokenHash: string) {
  return db.selectFrom('password_reset_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Marks an unused, unexpired link used and answers its account; undefined when the link is
 * unknown, used or expired. One UPDATE, so two parallel uses cannot both succeed.
 */
export async function consumeResetToken(db: Executor, tokenHash: string, now: string): Promise<string | undefined> {
  const row = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('account_id')
    .executeTakeFirst();
  return row?.account_id;
}

/** Every other open link of the account stops working (a reset used one of them). */
export async function expireResetTokens(db: Executor, accountId: string, now: string) {
  await db.updateTable('password_reset_tokens').set({ used_at: now }).where('account_id', '=', accountId).where('used_at', 'is', null).execute();
}

/** Links long expired or used are of no use to anyone. */
export async function deleteStaleResetTokens(db: Executor, before: string) {
  await db.deleteFrom('password_reset_tokens').where('expires_at', '<', before).execute();
}

// --- confirmed addresses -------------------------------------------------------------------------

export async function findEmailAddress(db: Executor, accountId: string, addressNormalized: string): Promise<EmailAddress | undefined> {
  return db.selectFrom('email_addresses').selectAll().where('account_id', '=', accountId).where('address_normalized', '=', addressNormalized).executeTakeFirst();
}

export async function listEmailAddresses(db: Executor, accountId: string): Promise<EmailAddress[]> {
  return db.selectFrom('email_addresses').selectAll().where('account_id', '=', accountId).orderBy('address_normalized').execute();
}

/** Records a new confirmation link for the address (inserting the address when new). */
export async function upsertConfirmationToken(
  db: Executor,
  row: { account_id: string; address_normalized: string; address: string; token_hash: string; token_expires_at: string; now: string },
) {
  await db
    .insertInto('email_addresses')
    .values({
      account_id: row.account_id,
      address_normalized: row.address_normalized,
      address: row.address,
      confirmed_at: null,
      token_hash: row.token_hash,
      token_expires_at: row.token_expires_at,
      confirmation_sent_at: row.now,
      created_at: row.now,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'address_normalized']).doUpdateSet({ token_hash: row.token_hash, token_expires_at: row.token_expires_at, confirmation_sent_at: row.now }),
    )
    .execute();
}

/**
 * Puts back what the address held before a link that could not be mailed: the previous link, or
 * no row at all for a new address. Only while the row still holds that link (not confirmed since,
 * not replaced by a newer link).
 */
export async function revertConfirmationToken(
  db: Executor,
  written: { account_id: string; address_normalized: string; token_hash: string },
  previous: EmailAddress | undefined,
) {
  const { account_id, address_normalized, token_hash } = written;
  if (!previous) {
    await db
      .deleteFrom('email_addresses')
      .where('account_id', '=', account_id)
      .where('address_normalized', '=', address_normalized)
      .where('token_hash', '=', token_hash)
      .where('confirmed_at', 'is', null)
      .execute();
    return;
  }
  await db
    .updateTable('email_addresses')
    .set({ token_hash: previous.token_hash, token_expires_at: previous.token_expires_at, confirmation_sent_at: previous.confirmation_sent_at })
    .where('account_id', '=', account_id)
    .where('address_normalized', '=', address_normalized)
    .where('token_hash', '=', token_hash)
    .where('confirmed_at', 'is', null)
    .execute();
}

export async function findEmailAddressByToken(db: Executor, tokenHash: string): Promise<EmailAddress | undefined> {
  return db.selectFrom('email_addresses').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Confirms the address whose live link has this hash; answers it, or undefined. */
export async function confirmEmailAddress(db: Executor, tokenHash: string, now: string): Promise<EmailAddress | undefined> {
  return db
    .updateTable('email_addresses')
    .set({ confirmed_at: now, token_hash: null, token_expires_at: null })
    .where('token_hash', '=', tokenHash)
    .where('token_expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Email destinations of the account to this address that were disabled for failing 5 times in a
 * row (as an unconfirmed address does on a repeating reminder): turned back on; answers their ids.
 */
export async function enableFailingEmailDestinations(db: Executor, accountId: string, addressNormalized: string): Promise<string[]> {
  const rows = await db
    .selectFrom('destinations as d')
    .innerJoin('reminders as r', 'r.id', 'd.reminder_id')
    .select(['d.id', 'd.metadata'])
    .where('r.account_id', '=', accountId)
    .where('d.type', '=', 'email')
    .where('d.disabled_code', '=', 'DESTINATION_FAILING')
    .execute();
  const ids = rows
    .filter((r) => {
      try {
        return String((JSON.parse(r.metadata) as { address?: unknown }).address ?? '').toLowerCase() === addressNormalized;
      } catch {
        return false;
      }
    })
    .map((r) => r.id);
  if (ids.length) await db.updateTable('destinations').set({ disabled_at: null, disabled_reason: null, disabled_code: null }).where('id', 'in', ids).execute();
  return ids;
}

// --- the send log (hourly cap) -------------------------------------------------------------------

/** Logs one mail sent for the account; answers the row's id. */
export async function recordEmailSend(db: Executor, accountId: string, kind: EmailSendKind, at: string): Promise<number> {
  const row = await db.insertInto('email_sends').values({ account_id: accountId, kind, created_at: at }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Forgets one logged send (it was reserved, then the mail could not be sent at all). */
export async function deleteEmailSend(db: Executor, id: number) {
  await db.deleteFrom('email_sends').where('id', '=', id).execute();
}

/** Mails of these kinds the account sent since `since`, oldest first (their times). */
export async function emailSendsSince(db: Executor, accountId: string, kinds: EmailSendKind[], since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('email_sends')
    .select('created_at')
    .where('account_id', '=', accountId)
    .where('kind', 'in', kinds)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.created_at);
}

export async function deleteEmailSendsBefore(db: Executor, before: string) {
  await db.deleteFrom('email_sends').where('created_at', '<', before).execute();
}

/** Everything email-related of an account (account deletion). */
export async function deleteAccountEmailData(db: Executor, accountId: string) {
  await db.deleteFrom('password_reset_tokens').where('account_id', '=', accountId).execute();
  await db.deleteFrom('email_addresses').where('account_id', '=', accountId).execute();
  await db.deleteFrom('email_sends').where('account_id', '=', accountId).execute();
}

/**
 * Two accounts merged (moveAccountInto): the reminders moved, so do the addresses confirmed for
 * them (one the target already has stays the target's) and the send log (the hourly cap); open
 * reset links of the account that disappears are deleted.
 */
export async function moveAccountEmailData(db: Executor, fromId: string, intoId: string) {
  const kept = db.selectFrom('email_addresses').select('address_normalized').where('account_id', '=', intoId);
  await db.updateTable('email_addresses').set({ account_id: intoId }).where('account_id', '=', fromId).where('address_normalized', 'not in', kept).execute();
  await db.updateTable('email_sends').set({ account_id: intoId }).where('account_id', '=', fromId).execute();
  await deleteAccountEmailData(db, fromId);
}
