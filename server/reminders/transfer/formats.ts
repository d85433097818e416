/** What every part of reminder transfer shares: the formats, the limits of a file and the row shapes. */
import { AppError } from '../../errors.ts';

export type TransferFormat = 'json' | 'csv' | 'ics';
export type ImportMode = 'all_or_nothing' | 'valid_only';

/** A file of at most 1 MiB, of at most 10,000 reminders. */
export const MAX_IMPORT_BYTES = 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;

/** One reminder as files carry it: what a create takes, plus skipped occurrences and paused. */
export interface TransferReminder {
  message: string;
  date: string;
  time: string;
  timezone: string;
  recurrence: string;
  rrule: string | null;
  exceptions: string[];
  paused: boolean;
  destinations: Array<{ type: string; metadata: Record<string, unknown> }>;
  /** Alerts before each occurrence (in a CSV file, its minutes before separated by spaces). */
  alerts?: Array<{ before_minutes: number }>;
}

/** `exceptions`: the skipped occurrences, ISO-8601 instants separated by spaces. */
export const CSV_COLUMNS = ['message', 'date', 'time', 'timezone', 'recurrence', 'rrule', 'exceptions', 'paused', 'destinations', 'alerts'] as const;

/** A row as read from a file; fields are checked by `prepareRow` (prepare-row.ts). */
export interface RawRow {
  row: number;
  fields: Record<string, unknown>;
  /** ICS: EXDATE instants that may not be occurrences (they exclude nothing then: dropped). */
  lenientExceptions?: boolean;
  /** A problem found while reading the row (an RRULE Chime cannot represent...). */
  error?: AppError;
}

/** Why a file cannot be read at all: `reason` lets the dashboard say it in the user's language. */
export const FILE_PROBLEMS = ['EMPTY', 'JSON_SYNTAX', 'JSON_SHAPE', 'CSV_SYNTAX', 'CSV_HEADER', 'ICS_SYNTAX', 'NOT_ICS'] as const;
export type FileProblem = (typeof FILE_PROBLEMS)[number];

/** `detail`: the parser's own words (where in the file), shown beside the translated reason. */
export const fileError = (reason: FileProblem, message: string, detail?: string) =>
  new AppError('IMPORT_FILE_INVALID', detail ? `${message}: ${detail}` : message, undefined, detail ? { reason, detail } : { reason });

export const tooManyRowsError = () => new AppError('IMPORT_TOO_LARGE', `A file may hold at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')} reminders`);
