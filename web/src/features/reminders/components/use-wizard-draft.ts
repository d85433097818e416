import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { EditableDestination } from '../api/destinations';
import { todayInZone } from '@/lib/format';
import { currentTime, isReminderFormValid, type ReminderFormState } from './reminder-form-fields';

/** sessionStorage: the draft kept over a "connect Discord" round trip (this tab only, taken once). */
const KEPT_DRAFT_KEY = 'chime_wizard_draft';

interface KeptDraft {
  form: ReminderFormState;
  destinations: EditableDestination[];
  dateEdited: boolean;
  timeEdited: boolean;
}

/** The draft kept before the round trip, once: it is removed as it is read. */
function takeKeptDraft(): KeptDraft | null {
  try {
    const raw = sessionStorage.getItem(KEPT_DRAFT_KEY);
    sessionStorage.removeItem(KEPT_DRAFT_KEY);
    const kept = raw ? (JSON.parse(raw) as Partial<KeptDraft>) : null;
    if (!kept || typeof kept.form !== 'object' || kept.form === null || !Array.isArray(kept.destinations)) return null;
    return { form: kept.form, destinations: kept.destinations, dateEdited: kept.dateEdited === true, timeEdited: kept.timeEdited === true };
  } catch {
    return null;
  }
}

/** Today in the browser's zone: the date until the account's zone is known. */
function browserToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The ?date=YYYY-MM-DD the calendar links with, when it is a real date; else no date. */
function dateFromQuery(search: string): string {
  const value = new URLSearchParams(search).get('date') ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return '';
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value) ? value : '';
}

/**
 * The create wizard's draft: the reminder's fields (the date from the calendar's link, else today;
 * the time on the account's clock, issue 27 #6) and its destinations, and whether the user has put anything in it yet.
 */
export function useWizardDraft(timezone: string | undefined) {
  const search = useSearch();
  const [kept] = useState(takeKeptDraft);
  const [queryDate] = useState(() => dateFromQuery(search));
  // The wizard starts on a one-off, as the edit form does (docs/decisions/specification-gaps.md).
  const [form, setForm] = useState<ReminderFormState>(
    () =>
      kept?.form ?? {
        date: queryDate || browserToday(),
        time: currentTime(),
        message: '',
        recurrence: 'ONCE',
        custom: null,
        end: { kind: 'never' },
        raw: null,
      },
  );
  const [destinations, setDestinations] = useState<EditableDestination[]>(kept?.destinations ?? []);
  const timeEdited = useRef(kept?.timeEdited ?? false);
  const dateEdited = useRef(kept?.dateEdited ?? false);

  // "Current local time" and "today" mean the account's wall clock: once the zone is known, follow
  // it unless the user already picked a time or a date (or the calendar gave one).
  useEffect(() => {
    if (!timezone) return;
    setForm((f) => ({
      ...f,
      time: timeEdited.current ? f.time : currentTime(timezone),
      date: dateEdited.current || queryDate ? f.date : todayInZone(timezone),
    }));
  }, [timezone, queryDate]);

  function updateForm(next: ReminderFormState) {
    if (next.time !== form.time) timeEdited.current = true;
    if (next.date !== form.date) dateEdited.current = true;
    setForm(next);
  }

  // Anything the user typed or picked (the date from the calendar and the clock's default time are not theirs).
  const touched =
    form.message.trim() !== '' ||
    dateEdited.current ||
    form.recurrence !== 'ONCE' ||
    form.custom !== null ||
    form.end.kind !== 'never' ||
    destinations.length > 0 ||
    timeEdited.current;

  /** Keeps the draft for the round trip to Discord and back (issue 27 #11); `forget` if it is not taken. */
  const keep = {
    save() {
      try {
        const draft: KeptDraft = { form, destinations, dateEdited: dateEdited.current, timeEdited: timeEdited.current };
        sessionStorage.setItem(KEPT_DRAFT_KEY, JSON.stringify(draft));
      } catch {
        /* storage blocked: the round trip still connects Discord, the draft is lost as before */
      }
    },
    forget() {
      takeKeptDraft();
    },
  };

  return { form, updateForm, destinations, setDestinations, valid: isReminderFormValid(form), touched, restored: kept !== null, keep };
}
