import type { DB } from '../db/connection.ts';
import { readInstanceCounts } from '../repositories/admin.ts';
import { type CommandResult, done } from './result.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long ago `iso` was, in words: "3 min ago". */
function ago(iso: string | null, nowMs: number): string {
  if (!iso) return 'none';
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  const span = s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : s < 172_800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} days`;
  return `${iso} (${span} ago)`;
}

/** `npm run admin -- stats`: what the instance holds and does (docs/operations.md "Administration"). */
export async function statsCommand(db: DB, nowMs = Date.now()): Promise<CommandResult> {
  const counts = await readInstanceCounts(db, new Date(nowMs).toISOString(), new Date(nowMs - DAY_MS).toISOString());
  const text = [
    `Accounts:            ${counts.accounts} (${counts.disabledAccounts} disabled)`,
    `Reminders:           ${counts.remindersActive} active, ${counts.remindersPaused} paused, ${counts.remindersCompleted} completed`,
    `Last 24 hours:       ${counts.deliveredSince} delivered, ${counts.failedDeliveriesSince} failed for good, ${counts.failedAttemptsSince} failed attempts`,
    `Queue:               ${counts.queueDepth} deliveries waiting to be sent (oldest ${ago(counts.oldestQueued, nowMs)})`,
    `Due, not yet queued: ${counts.dueNow} reminders (oldest due ${ago(counts.oldestDue, nowMs)})`,
  ].join('\n');
  return done(text, { ...counts, at: new Date(nowMs).toISOString() });
}
