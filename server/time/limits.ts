/**
 * The limits the recurrence engine (rrule/expand.ts, for presets and custom rules alike) and the
 * series API (series.ts) share.
 */
import { DAY, daysFromCivil } from './civil.ts';

/** No occurrence is produced after the end of this year (local date). */
export const LAST_YEAR = 9999;
/** Day number of 9999-12-31, the last local day an occurrence may fall on. */
export const LAST_DAY = daysFromCivil(LAST_YEAR, 12, 31);
/** Latest `after` worth looking at: anything later has no occurrence on or before 9999-12-31 in any zone. */
export const LAST_USEFUL_AFTER_MS = (LAST_DAY + 2) * DAY;

/** The most occurrences one "next occurrences" call lists (previews). */
export const MAX_NEXT_OCCURRENCES = 100;
/** How many occurrences one "occurrences between" call lists when the caller does not say (the calendar). */
export const DEFAULT_OCCURRENCES_IN_RANGE = 1000;
/** The most occurrences one "occurrences between" call lists, whatever the caller asks. */
export const MAX_OCCURRENCES_IN_RANGE = 10_000;
