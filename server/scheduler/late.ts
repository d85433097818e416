/**
 * When a delivery counts as late: it went out more than this long after it was due (the
 * occurrence, or the snooze instant). Exactly 60 s after is still on time. The one value behind
 * `late` in the webhook body, the "Delivered late" note in Discord and deliveries.late (docs/time.md
 * "How a reminder keeps time"). No imports, so any part of the project (the dashboard included) can read it.
 */
export const LATE_THRESHOLD_MS = 60_000;
