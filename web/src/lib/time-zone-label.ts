/**
 * The one way a time zone is shown in the dashboard: a readable city with its UTC offset,
 * "Tokyo (UTC+09:00)", "Buenos Aires (UTC-03:00)", "UTC". Show the IANA id ("Asia/Tokyo") in a
 * tooltip (`title`) beside it: `zoneTitle(zone)` is what to put there.
 */

/** "Asia/Tokyo" -> "Tokyo"; "America/Argentina/Buenos_Aires" -> "Buenos Aires"; "UTC" -> "UTC". */
export function zoneCity(timeZone: string): string {
  const last = timeZone.split('/').pop() || timeZone;
  return last.replaceAll('_', ' ');
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  return format;
}

/** "UTC+09:00"-style offset of a zone at an instant (now by default); "UTC+00:00" for UTC itself. */
export function zoneOffset(timeZone: string, at: Date = new Date()): string {
  try {
    const part = offsetFormat(timeZone)
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    return !part || part === 'GMT' ? 'UTC+00:00' : part.replace('GMT', 'UTC');
  } catch {
    return 'UTC+00:00';
  }
}

export const UTC_IDS: ReadonlySet<string> = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Etc/Zulu']);

/** "Tokyo (UTC+09:00)": the city and the offset at `at` (now by default). UTC is just "UTC". */
export function timeZoneLabel(timeZone: string, at: Date = new Date()): string {
  if (!timeZone) return '';
  if (UTC_IDS.has(timeZone)) return 'UTC';
  return `${zoneCity(timeZone)} (${zoneOffset(timeZone, at)})`;
}

/** The tooltip that goes with a label: the IANA id itself. */
export function zoneTitle(timeZone: string): string {
  return timeZone;
}
