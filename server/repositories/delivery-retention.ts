import type { Executor } from './executor.ts';

/** Deletes the delivery log older than `cutoffIso` in small batches; returns rows deleted. */
export async function pruneDeliveryLog(db: Executor, cutoffIso: string, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await db
      .deleteFrom('delivery_attempts')
      .where('id', 'in', (eb) => eb.selectFrom('delivery_attempts').select('id').where('created_at', '<', cutoffIso).limit(batch))
      .executeTakeFirst();
    const n = Number(res.numDeletedRows);
    total += n;
    if (n < batch) break;
  }
  for (;;) {
    const res = await db
      .deleteFrom('deliveries')
      .where('id', 'in', (eb) =>
        eb.selectFrom('deliveries').select('id').where('status', 'in', ['delivered', 'failed']).where('updated_at', '<', cutoffIso).limit(batch),
      )
      .executeTakeFirst();
    const n = Number(res.numDeletedRows);
    total += n;
    if (n < batch) break;
  }
  return total;
}