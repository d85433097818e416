import type { DB } from '../db/connection.ts';
import { type AttemptRecord, disableDestination, latestFinalStatuses } from '../repositories/attempt-results.ts';
import { disableAfterFailures, FAILING_STREAK } from './retry-policy.ts';

/**
 * After a batch of results is written: each destination with a delivery that failed for good is
 * stopped when the retry policy says its latest deliveries all failed (docs/webhooks.md "Delivery history and problems"). Instances racing here write the same decision once (disabled_at is null).
 *
 * It runs after the results' transaction has committed, not inside it: two instances recording
 * the fourth and fifth failure at once would each see only its own uncommitted one (READ
 * COMMITTED) and neither would stop the destination; after the commit, the later check sees both.
 * A crash between the two costs at most one more failed delivery, whose own check then stops it.
 */
export async function stopFailingDestinations(db: DB, records: readonly AttemptRecord[]): Promise<void> {
  const failedAt = new Map<string, string>();
  for (const r of records) if (r.outcome === 'failed' && !r.disableReason) failedAt.set(r.destinationId, r.finishedAt);
  for (const [destinationId, at] of failedAt) {
    const decision = disableAfterFailures(await latestFinalStatuses(db, destinationId, FAILING_STREAK));
    if (decision) await disableDestination(db, destinationId, at, decision.reason, decision.code);
  }
}
