import { timeZoneLabel } from './time-zone-label';

/** Sign-up / profile-completion zones (55 IANA zones including UTC, sorted; docs/dashboard.md "Forms"). */
export const SIGNUP_TIMEZONES: readonly string[] = [
  'Africa/Cairo',
  'Africa/Casablanca',
  'Africa/Johannesburg',
  'Africa/Lagos',
  'Africa/Nairobi',
  'America/Anchorage',
  'America/Argentina/Buenos_Aires',
  'America/Bogota',
  'America/Chicago',
  'America/Denver',
  'America/Halifax',
  'America/Lima',
  'America/Los_Angeles',
  'America/Mexico_City',
  'America/New_York',
  'America/Phoenix',
  'America/Santiago',
  'America/Sao_Paulo',
  'America/Toronto',
  'America/Vancouver',
  'Asia/Bangkok',
  'Asia/Dhaka',
  'Asia/Dubai',
  'Asia/Hong_Kong',
  'Asia/Jakarta',
  'Asia/Jerusalem',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Manila',
  'Asia/Seoul',
  'Asia/Shanghai',
  'Asia/Singapore',
  'Asia/Taipei',
  'Asia/Tehran',
  'Asia/Tokyo',
  'Atlantic/Reykjavik',
  'Australia/Adelaide',
  'Australia/Brisbane',
  'Australia/Melbourne',
  'Australia/Perth',
  'Australia/Sydney',
  'Europe/Amsterdam',
  'Europe/Berlin',
  'Europe/Dublin',
  'Europe/Istanbul',
  'Europe/Lisbon',
  'Europe/London',
  'Europe/Madrid',
  'Europe/Moscow',
  'Europe/Paris',
  'Europe/Rome',
  'Europe/Stockholm',
  'Pacific/Auckland',
  'Pacific/Honolulu',
  'UTC',
];

/** Account-page zones (23 entries, in the order the account page has always shown; docs/dashboard.md "Forms"). */
export const ACCOUNT_TIMEZONES: readonly string[] = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Toronto',
  'America/Mexico_City',
  'America/Argentina/Buenos_Aires',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'Asia/Singapore',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Australia/Melbourne',
  'Pacific/Auckland',
  'Africa/Cairo',
  'Africa/Johannesburg',
];

export const DEFAULT_TIMEZONE = 'UTC';

export function browserTimezone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** The browser's zone if it is in `list`, else UTC. */
export function defaultTimezone(list: readonly string[] = SIGNUP_TIMEZONES): string {
  const zone = browserTimezone();
  return zone && list.includes(zone) ? zone : DEFAULT_TIMEZONE;
}

/** Case-insensitive substring match on the id (also with spaces for underscores) or the shown label ("UTC+09"). */
export function filterTimezones(list: readonly string[], query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((zone) => {
    const z = zone.toLowerCase();
    return z.includes(q) || z.replaceAll('_', ' ').includes(q) || timeZoneLabel(zone).toLowerCase().includes(q);
  });
}

/** Account timezone may arrive as text or as an object (docs/dashboard.md "Forms", time zone lists). */
export function normalizeTimezone(value: unknown): string {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object') {
    const v = value as { iana_location?: unknown; name?: unknown };
    if (typeof v.iana_location === 'string' && v.iana_location) return v.iana_location;
    if (typeof v.name === 'string' && v.name) return v.name;
  }
  return DEFAULT_TIMEZONE;
}
