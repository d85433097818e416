import type { Executor } from './executor.ts';

/** Deliveries with their reminder and destination: the base of the outbox page and of the problems list. */
export const deliveriesWithTargets = (db: Executor) =>
  db
    .selectFrom('deliveries as d')
    .innerJoin('reminders as r', 'r.id', 'd.reminder_id')
    .innerJoin('destinations as ds', 'ds.id', 'd.destination_id');
