import type { DB } from '../db/connection.ts';
import { type AttemptRecord, disableDestination, latestFinalStatuses } from '../repositories/attempt-results.ts';
import { disableAfterFailures, FAILING_STREAK } from './retry-policy.ts';

/**
 * After a batch of results is written: each destination with a delivery that failed for good is
 * stopped when the retry policy says its latest deliveries all failed (docs/webhooks.md "Delivery history and problems"). Instances racing here write the same decision once (disabled_at is null).
 */
export async function stopFailingDestinations(db: DB, records: readonly AttemptRecord[]): Promise<void> {
  const failedAt = new Map<string, string>();
  for (const r of records) if (r.outcome === 'failed' && !r.disableReason) failedAt.set(r.destinationId, r.finishedAt);
  for (const [destinationId, at] of failedAt) {
    const decision = disableAfterFailures(await latestFinalStatuses(db, destinationId, FAILING_STREAK));
    if (decision) await disableDestination(db, destinationId, at, decision.reason, decision.code);
  }
}
