import type { Executor } from './executor.ts';

/**
 * Takes the lease when it is free or expired, or renews it when `owner` already holds it; answers
 * whether `owner` holds it until `expiresIso`. One upsert: two instances racing cannot both win.
 */
export async function acquireLease(db: Executor, name: string, owner: string, nowIso: string, expiresIso: string): Promise<boolean> {
  const row = await db
    .insertInto('leases')
    .values({ name, owner, expires_at: expiresIso })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ owner, expires_at: expiresIso })
        .where((eb) => eb.or([eb('leases.expires_at', '<=', nowIso), eb('leases.owner', '=', owner)])),
    )
    .returning('owner')
    .executeTakeFirst();
  return row?.owner === owner;
}

/** Gives the lease up at once (a clean shutdown), so another instance need not wait for it to expire. */
export async function releaseLease(db: Executor, name: string, owner: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
}

/**
 * Writes who holds a job whose lock lives elsewhere (PostgreSQL's advisory lock), so the leases
 * table still says which instance holds it. Unconditional: the lock, not this row, decides.
 */
export async function recordLeaseHolder(db: Executor, name: string, owner: string, expiresIso: string): Promise<void> {
  await db
    .insertInto('leases')
    .values({ name, owner, expires_at: expiresIso })
    .onConflict((oc) => oc.column('name').doUpdateSet({ owner, expires_at: expiresIso }))
    .execute();
}

/** How many rows named `prefix...` have not expired at `nowIso` (the instances that renewed a heartbeat lately). */
export async function countLiveLeases(db: Executor, prefix: string, nowIso: string): Promise<number> {
  const row = await db
    .selectFrom('leases')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('name', 'like', `${prefix}%`)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes the expired rows named `prefix...` (heartbeats of instances that are gone). */
export async function deleteExpiredLeases(db: Executor, prefix: string, nowIso: string): Promise<void> {
  await db.deleteFrom('leases').where('name', 'like', `${prefix}%`).where('expires_at', '<=', nowIso).execute();
}
