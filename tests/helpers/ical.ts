/** Reading Chime's calendars with an independent parser (ical.js), and Chime's own occurrences to compare with. */
import ICAL from 'ical.js';
import { ruleOf } from '../../server/reminders/schedule.ts';
import { firstOccurrence, nextOccurrences } from '../../server/time/series.ts';

/** First `n` occurrences of every VEVENT as ical.js expands them, by reminder id (the UID before '@'). */
export function expandWithIcalJs(text: string, n = 20): Map<string, string[]> {
  const comp = new ICAL.Component(ICAL.parse(text));
  for (const vtz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(vtz));
  const out = new Map<string, string[]>();
  for (const ve of comp.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(ve);
    const it = event.iterator();
    const got: string[] = [];
    let next: ICAL.Time | null;
    while (got.length < n && (next = it.next())) got.push(next.toJSDate().toISOString());
    out.set(event.uid.split('@')[0]!, got);
  }
  return out;
}

/** Chime's own first `n` occurrences (series.ts, skipped ones left out). */
export function chimeOccurrences(r: Parameters<typeof ruleOf>[0], n = 20): string[] {
  const s = ruleOf(r);
  const first = firstOccurrence(s);
  if (first === null) return [];
  return [first, ...nextOccurrences(s, first, n - 1)].map((ms) => new Date(ms).toISOString());
}
