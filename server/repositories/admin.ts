import { sql } from 'kysely';
import { disabledAccountIds } from './due-reminders.ts';
import type { Executor } from './executor.ts';

/*
 * What the administration command (server/admin/) reads and writes across accounts: listings,
 * disabling, and the instance's figures. Plain data access; the command decides what to show.
 */

export interface AdminAccountRow {
  id: string;
  email: string | null;
  username: string;
  timezone: string;
  created_at: string;
  disabled_at: string | null;
  reminders: number;
  providers: string | null;
}

function accountsWithCounts(db: Executor) {
  return db
    .selectFrom('accounts as a')
    .select((eb) => [
      'a.id',
      'a.email',
      'a.username',
      'a.timezone',
      'a.created_at',
      'a.disabled_at',
      eb.selectFrom('reminders as r').select((e) => e.fn.countAll<number>().as('n')).whereRef('r.account_id', '=', 'a.id').as('reminders'),
    ]);
}

/** Accounts, oldest first, with how many reminders each has. */
export async function listAccountsWithCounts(db: Executor, limit: number, offset: number): Promise<AdminAccountRow[]> {
  const rows = await accountsWithCounts(db).orderBy('a.created_at').orderBy('a.id').limit(limit).offset(offset).execute();
  return attachProviders(db, rows);
}

/** One account by id, email (any case) or username; several when a username is shared. */
export async function findAccountsByKey(db: Executor, key: string): Promise<AdminAccountRow[]> {
  const rows = await accountsWithCounts(db)
    .where((eb) => eb.or([eb('a.id', '=', key), eb('a.email_normalized', '=', key.trim().toLowerCase()), eb('a.username', '=', key)]))
    .orderBy('a.created_at')
    .execute();
  return attachProviders(db, rows);
}

type RowWithoutProviders = Omit<AdminAccountRow, 'providers' | 'reminders'> & { reminders: number | null };

/** Sign-in methods per account, read separately: string aggregation differs between the two databases. */
async function attachProviders(db: Executor, rows: RowWithoutProviders[]): Promise<AdminAccountRow[]> {
  const ids = rows.map((r) => r.id);
  const identities = ids.length ? await db.selectFrom('identities').select(['account_id', 'provider']).where('account_id', 'in', ids).orderBy('provider').execute() : [];
  return rows.map((row) => {
    const providers = identities.filter((i) => i.account_id === row.id).map((i) => i.provider);
    return { ...row, reminders: Number(row.reminders ?? 0), providers: providers.length ? providers.join(',') : null };
  });
}

/** Sets or clears accounts.disabled_at; false when no such account. */
export async function setAccountDisabledAt(db: Executor, accountId: string, disabledAt: string | null): Promise<boolean> {
  const result = await db.updateTable('accounts').set({ disabled_at: disabledAt }).where('id', '=', accountId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface InstanceCounts {
  accounts: number;
  disabledAccounts: number;
  remindersActive: number;
  remindersPaused: number;
  remindersCompleted: number;
  deliveredSince: number;
  failedAttemptsSince: number;
  failedDeliveriesSince: number;
  queueDepth: number;
  dueNow: number;
  oldestDue: string | null;
  oldestQueued: string | null;
}

const count = (n: unknown) => Number(n ?? 0);

/** The instance's figures: accounts, reminders by status, deliveries since `sinceIso`, what waits at `nowIso`. */
export async function readInstanceCounts(db: Executor, nowIso: string, sinceIso: string): Promise<InstanceCounts> {
  const accounts = await db
    .selectFrom('accounts')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('disabled_at').as('disabled')])
    .executeTakeFirstOrThrow();
  const reminders = await db
    .selectFrom('reminders')
    .select((eb) => [
      eb.fn.sum<number>(sql`case when is_paused <> 0 then 1 else 0 end`).as('paused'),
      eb.fn.sum<number>(sql`case when is_paused = 0 and next_fire_utc is not null then 1 else 0 end`).as('active'),
      eb.fn.sum<number>(sql`case when is_paused = 0 and next_fire_utc is null then 1 else 0 end`).as('completed'),
    ])
    .executeTakeFirstOrThrow();
  const delivered = await db.selectFrom('deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('delivered_at', '>=', sinceIso).executeTakeFirstOrThrow();
  const failedDeliveries = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'failed')
    .where('updated_at', '>=', sinceIso)
    .executeTakeFirstOrThrow();
  const failedAttempts = await db
    .selectFrom('delivery_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('outcome', '<>', 'delivered')
    .where('created_at', '>=', sinceIso)
    .executeTakeFirstOrThrow();
  const queue = await db
    .selectFrom('deliveries')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'retrying'])
    .executeTakeFirstOrThrow();
  const due = await db
    .selectFrom('reminders')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('next_fire_utc').as('oldest')])
    .where('next_fire_utc', 'is not', null)
    .where('is_paused', '=', sql.lit(0))
    .where('next_fire_utc', '<=', nowIso)
    .where('account_id', 'not in', disabledAccountIds(db))
    .executeTakeFirstOrThrow();
  return {
    accounts: count(accounts.total),
    disabledAccounts: count(accounts.disabled),
    remindersActive: count(reminders.active),
    remindersPaused: count(reminders.paused),
    remindersCompleted: count(reminders.completed),
    deliveredSince: count(delivered.n),
    failedAttemptsSince: count(failedAttempts.n),
    failedDeliveriesSince: count(failedDeliveries.n),
    queueDepth: count(queue.n),
    dueNow: count(due.n),
    oldestDue: due.oldest ?? null,
    oldestQueued: queue.oldest ?? null,
  };
}

/** The migrations the database has applied, by name (Kysely's table); throws when it has none yet. */
export async function appliedMigrationNames(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}
