/**
 * Several instances decide "due" and "lease expired" each by its own clock (docs/operations.md "Running several instances"). A machine whose clock is off fires reminders early or late by as much, and one that
 * is ahead by more than a lease's margin takes over sends still in flight elsewhere. Each instance
 * compares its clock with the database server's, at start and every CHECK_EVERY_MS, and warns when
 * they differ by more than TOLERANCE_MS (NTP keeps them within milliseconds).
 */

export const TOLERANCE_MS = 1000;
export const CHECK_EVERY_MS = 10 * 60_000;

export interface ClockSkew {
  /** This machine's clock minus the database's (positive: this one is ahead). */
  skewMs: number;
  /** How long the reading took: the skew is known to within half of it. */
  roundTripMs: number;
}

/** Reads the database's clock once, taking the middle of the round trip as the moment it was read. */
export async function measureClockSkew(readDatabaseClock: () => Promise<number>, now: () => number = Date.now): Promise<ClockSkew> {
  const before = now();
  const database = await readDatabaseClock();
  const after = now();
  return { skewMs: Math.round(before + (after - before) / 2 - database), roundTripMs: after - before };
}

/** Whether a reading shows a skew larger than the tolerance, beyond what the round trip could explain. */
export const isClockOff = ({ skewMs, roundTripMs }: ClockSkew) => Math.abs(skewMs) - roundTripMs / 2 > TOLERANCE_MS;
