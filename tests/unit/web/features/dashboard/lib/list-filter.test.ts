/** The reminder list's search and filters (docs/dashboard.md "Dashboard and calendar"). */
import { describe, expect, it } from 'vitest';
import { filterReminders, isFiltering, NO_FILTER, type ListFilter, destinationTypesIn } from '../../../../../../web/src/features/dashboard/lib/list-filter.ts';
import { destinationCounts } from '../../../../../../web/src/features/dashboard/lib/reminder-display.ts';
import type { Reminder } from '../../../../../../web/src/lib/api/reminders.ts';

function reminder(id: string, message: string, fields: Partial<Reminder> = {}): Reminder {
  return { id, message, status: 'active', recurrence_type: 'ONCE', rrule: null, destinations: [], ...fields } as unknown as Reminder;
}
const dest = (type: string) => ({ id: `d-${type}`, type }) as unknown as Reminder['destinations'][number];

const LIST = [
  reminder('dentist', 'Call the dentist about the Réunion appointment', { destinations: [dest('email')] }),
  reminder('standup', 'Team stand-up', { recurrence_type: 'WORKDAYS', destinations: [dest('discord_channel'), dest('webhook')] }),
  reminder('paused', 'Water the plants', { status: 'paused', recurrence_type: 'CUSTOM', rrule: 'FREQ=DAILY' }),
  reminder('done', 'Renew the passport', { status: 'completed', destinations: [dest('ntfy')] }),
];
const ids = (filter: Partial<ListFilter>) => filterReminders(LIST, { ...NO_FILTER, ...filter }).map((r) => r.id);

describe('filterReminders', () => {
  it('keeps everything without a filter', () => {
    expect(ids({})).toEqual(['dentist', 'standup', 'paused', 'done']);
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ ...NO_FILTER, text: '   ' })).toBe(false);
  });

  it('finds every word of the search in the message, in any case and with or without accents', () => {
    expect(ids({ text: 'reunion' })).toEqual(['dentist']);
    expect(ids({ text: 'RÉUNION dentist' })).toEqual(['dentist']);
    expect(ids({ text: 'the  plants' })).toEqual(['paused']);
    expect(ids({ text: 'dentist plants' })).toEqual([]);
    expect(isFiltering({ ...NO_FILTER, text: 'x' })).toBe(true);
  });

  it('filters by status, "not completed" included', () => {
    expect(ids({ status: 'open' })).toEqual(['dentist', 'standup', 'paused']);
    expect(ids({ status: 'active' })).toEqual(['dentist', 'standup']);
    expect(ids({ status: 'paused' })).toEqual(['paused']);
    expect(ids({ status: 'completed' })).toEqual(['done']);
  });

  it('filters by destination type, or by having none', () => {
    expect(ids({ destination: 'webhook' })).toEqual(['standup']);
    expect(ids({ destination: 'ntfy' })).toEqual(['done']);
    expect(ids({ destination: 'none' })).toEqual(['paused']);
  });

  it('filters repeating (presets and custom rules) from one-time reminders', () => {
    expect(ids({ repeat: 'repeating' })).toEqual(['standup', 'paused']);
    expect(ids({ repeat: 'once' })).toEqual(['dentist', 'done']);
  });

  it('combines the search and the filters', () => {
    expect(ids({ text: 'the', status: 'open', repeat: 'once' })).toEqual(['dentist']);
  });
});

describe('destination types in the list', () => {
  it('offers only the types the reminders use, in display order', () => {
    expect(destinationTypesIn(LIST)).toEqual(['discord_channel', 'webhook', 'email', 'ntfy']);
  });

  it('counts push destinations too (a reminder with only an ntfy destination has one)', () => {
    expect(destinationCounts([dest('gotify'), dest('webhook'), dest('gotify')] as never)).toEqual([
      { type: 'webhook', count: 1 },
      { type: 'gotify', count: 2 },
    ]);
  });
});
