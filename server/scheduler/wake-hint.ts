/**
 * What a write tells the scheduler when it wakes it (server/scheduler/README.md "The timer"):
 *  - a number: the earliest instant (ms) at which a reminder it changed fires or alerts, and
 *    nothing else it wrote became claimable sooner. The timer then moves earlier if it must,
 *    without reading the table;
 *  - null: it made nothing claimable sooner (a pause, a delete). The timer stays;
 *  - undefined: it cannot say. The timer is armed again from the table.
 */
export type WakeHint = number | null | undefined;

/** The earliest of a changed reminder's instants (its next fire, its next alert), or null for none. */
export function earliestInstant(...instants: Array<string | null | undefined>): number | null {
  let earliest: number | null = null;
  for (const instant of instants) {
    if (!instant) continue;
    const ms = Date.parse(instant);
    if (Number.isNaN(ms)) continue;
    if (earliest === null || ms < earliest) earliest = ms;
  }
  return earliest;
}
