import type { Kysely } from 'kysely';

/**
 * Reminders store what the user chose: the local date and wall-clock time of their anchor, next to
 * the zone (remind_at_utc becomes derived). Until now only the instant was kept, so a time chosen
 * inside a DST gap (02:30 on a spring-forward day) came back as the gap end (03:00) forever.
 *
 * Existing rows get the wall clock their anchor instant reads in their zone: the best that can be
 * recovered, and what every later occurrence was already computed from, so no firing moves.
 * One exception: an anchor on the LATER reading of a repeated time (the bot's "in 10 minutes"
 * during a fall-back hour) cannot be named by a wall clock, which means the earlier reading. For
 * HOURLY, where that would move every firing (by 30 minutes on Lord Howe), the anchor moves back
 * by whole hours to one a wall clock names exactly: the same series, no firing lost.
 * Legacy zone spellings (Asia/Calcutta) are renamed to the modern IANA name (Asia/Kolkata) in
 * reminders and accounts.
 *
 * Frozen in time: no application imports; the rename table is a copy as of this migration.
 */
const LEGACY_ZONE_NAMES: Record<string, string> = {
  'America/Argentina/ComodRivadavia': 'America/Argentina/Catamarca',
  'America/Atka': 'America/Adak',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Ensenada': 'America/Tijuana',
  'America/Fort_Wayne': 'America/Indiana/Indianapolis',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Knox_IN': 'America/Indiana/Knox',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Montreal': 'America/Toronto',
  'America/Nipigon': 'America/Toronto',
  'America/Pangnirtung': 'America/Iqaluit',
  'America/Porto_Acre': 'America/Rio_Branco',
  'America/Rainy_River': 'America/Winnipeg',
  'America/Rosario': 'America/Argentina/Cordoba',
  'America/Santa_Isabel': 'America/Tijuana',
  'America/Shiprock': 'America/Denver',
  'America/Thunder_Bay': 'America/Toronto',
  'America/Yellowknife': 'America/Edmonton',
  'Asia/Ashkhabad': 'Asia/Ashgabat',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Choibalsan': 'Asia/Ulaanbaatar',
  'Asia/Chongqing': 'Asia/Shanghai',
  'Asia/Chungking': 'Asia/Shanghai',
  'Asia/Dacca': 'Asia/Dhaka',
  'Asia/Harbin': 'Asia/Shanghai',
  'Asia/Istanbul': 'Europe/Istanbul',
  'Asia/Kashgar': 'Asia/Urumqi',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Macao': 'Asia/Macau',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Tel_Aviv': 'Asia/Jerusalem',
  'Asia/Thimbu': 'Asia/Thimphu',
  'Asia/Ujung_Pandang': 'Asia/Makassar',
  'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Australia/ACT': 'Australia/Sydney',
  'Australia/Canberra': 'Australia/Sydney',
  'Australia/Currie': 'Australia/Hobart',
  'Australia/LHI': 'Australia/Lord_Howe',
  'Australia/NSW': 'Australia/Sydney',
  'Australia/North': 'Australia/Darwin',
  'Australia/Queensland': 'Australia/Brisbane',
  'Australia/South': 'Australia/Adelaide',
  'Australia/Tasmania': 'Australia/Hobart',
  'Australia/Victoria': 'Australia/Melbourne',
  'Australia/West': 'Australia/Perth',
  'Australia/Yancowinna': 'Australia/Broken_Hill',
  'Brazil/Acre': 'America/Rio_Branco',
  'Brazil/DeNoronha': 'America/Noronha',
  'Brazil/East': 'America/Sao_Paulo',
  'Brazil/West': 'America/Manaus',
  'Canada/Atlantic': 'America/Halifax',
  'Canada/Central': 'America/Winnipeg',
  'Canada/Eastern': 'America/Toronto',
  'Canada/Mountain': 'America/Edmonton',
  'Canada/Newfoundland': 'America/St_Johns',
  'Canada/Pacific': 'America/Vancouver',
  'Canada/Saskatchewan': 'America/Regina',
  'Canada/Yukon': 'America/Whitehorse',
  'Chile/Continental': 'America/Santiago',
  'Chile/EasterIsland': 'Pacific/Easter',
  'Cuba': 'America/Havana',
  'Egypt': 'Africa/Cairo',
  'Eire': 'Europe/Dublin',
  'Europe/Belfast': 'Europe/London',
  'Europe/Kiev': 'Europe/Kyiv',
  'Europe/Nicosia': 'Asia/Nicosia',
  'Europe/Tiraspol': 'Europe/Chisinau',
  'Europe/Uzhgorod': 'Europe/Kyiv',
  'Europe/Zaporozhye': 'Europe/Kyiv',
  'GB': 'Europe/London',
  'GB-Eire': 'Europe/London',
  'Hongkong': 'Asia/Hong_Kong',
  'Iran': 'Asia/Tehran',
  'Israel': 'Asia/Jerusalem',
  'Jamaica': 'America/Jamaica',
  'Japan': 'Asia/Tokyo',
  'Kwajalein': 'Pacific/Kwajalein',
  'Libya': 'Africa/Tripoli',
  'Mexico/BajaNorte': 'America/Tijuana',
  'Mexico/BajaSur': 'America/Mazatlan',
  'Mexico/General': 'America/Mexico_City',
  'NZ': 'Pacific/Auckland',
  'NZ-CHAT': 'Pacific/Chatham',
  'Navajo': 'America/Denver',
  'PRC': 'Asia/Shanghai',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Johnston': 'Pacific/Honolulu',
  'Pacific/Samoa': 'Pacific/Pago_Pago',
  'Poland': 'Europe/Warsaw',
  'Portugal': 'Europe/Lisbon',
  'ROC': 'Asia/Taipei',
  'ROK': 'Asia/Seoul',
  'Singapore': 'Asia/Singapore',
  'Turkey': 'Europe/Istanbul',
  'US/Alaska': 'America/Anchorage',
  'US/Aleutian': 'America/Adak',
  'US/Arizona': 'America/Phoenix',
  'US/Central': 'America/Chicago',
  'US/East-Indiana': 'America/Indiana/Indianapolis',
  'US/Eastern': 'America/New_York',
  'US/Hawaii': 'Pacific/Honolulu',
  'US/Indiana-Starke': 'America/Indiana/Knox',
  'US/Michigan': 'America/Detroit',
  'US/Mountain': 'America/Denver',
  'US/Pacific': 'America/Los_Angeles',
  'US/Samoa': 'Pacific/Pago_Pago',
  'W-SU': 'Europe/Moscow',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const HOUR = 3_600_000;

function offsetAt(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant reads a wall clock that an earlier instant (a larger offset before a fall-back) read too. */
function isLaterReading(ms: number, timeZone: string): boolean {
  const now = offsetAt(ms, timeZone);
  for (const back of [HOUR, 2 * HOUR, 3 * HOUR]) {
    const before = offsetAt(ms - back, timeZone);
    if (before > now && offsetAt(ms - (before - now), timeZone) === before) return true;
  }
  return false;
}

function wallClockOf(instantIso: string, timeZone: string): { date: string; time: string } | null {
  const ms = Date.parse(instantIso);
  if (Number.isNaN(ms)) return null;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(ms));
  } catch {
    return null;
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const second = get('second');
  const time = `${pad(get('hour'))}:${pad(get('minute'))}${second ? `:${pad(second)}` : ''}`;
  return { date: `${pad(get('year'), 4)}-${pad(get('month'))}-${pad(get('day'))}`, time };
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reminders').addColumn('local_date', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('reminders').addColumn('local_time', 'text', (c) => c.notNull().defaultTo('')).execute();

  for (const [legacy, modern] of Object.entries(LEGACY_ZONE_NAMES)) {
    await db.updateTable('reminders').set({ timezone: modern }).where('timezone', '=', legacy).execute();
    await db.updateTable('accounts').set({ timezone: modern }).where('timezone', '=', legacy).execute();
  }

  // Keyset pages: bounded memory on large databases.
  let after = '';
  for (;;) {
    const rows: Array<{ id: string; remind_at_utc: string; timezone: string; recurrence_type: string }> = await db
      .selectFrom('reminders')
      .select(['id', 'remind_at_utc', 'timezone', 'recurrence_type'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      let anchor = row.remind_at_utc;
      if (row.recurrence_type === 'HOURLY') {
        let ms = Date.parse(anchor);
        for (let i = 0; i < 4 && !Number.isNaN(ms) && isLaterReading(ms, row.timezone); i++) ms -= HOUR;
        if (!Number.isNaN(ms)) anchor = new Date(ms).toISOString();
      }
      const wall = wallClockOf(anchor, row.timezone) ?? wallClockOf(anchor, 'UTC');
      if (wall) {
        await db
          .updateTable('reminders')
          .set({ local_date: wall.date, local_time: wall.time, ...(anchor !== row.remind_at_utc ? { remind_at_utc: anchor } : {}) })
          .where('id', '=', row.id)
          .execute();
      }
    }
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reminders').dropColumn('local_time').execute();
  await db.schema.alterTable('reminders').dropColumn('local_date').execute();
}
