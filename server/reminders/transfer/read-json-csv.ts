/** Reading a JSON or CSV file into rows, unvalidated (prepare-row.ts checks them). */
import { AppError } from '../../errors.ts';
import { CsvSyntaxError, parseCsv, unguardCell } from '../../lib/csv.ts';
import { CSV_COLUMNS, fileError, MAX_IMPORT_ROWS, tooManyRowsError, type RawRow } from './formats.ts';

export function readJson(content: string): RawRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw fileError('JSON_SYNTAX', 'The file is not valid JSON', (err as Error).message);
  }
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).reminders : undefined;
  if (!Array.isArray(list)) throw fileError('JSON_SHAPE', 'The JSON file must hold a "reminders" array (as Chime exports it) or an array of reminders');
  if (list.length > MAX_IMPORT_ROWS) throw tooManyRowsError();
  return list.map((item, i) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? { row: i + 1, fields: item as Record<string, unknown> }
      : { row: i + 1, fields: {}, error: new AppError('VALIDATION_FAILED', 'Each reminder must be a JSON object') },
  );
}

export function readCsv(content: string): RawRow[] {
  let records: string[][];
  try {
    records = parseCsv(content, MAX_IMPORT_ROWS + 1);
  } catch (err) {
    if (err instanceof CsvSyntaxError && err.message.startsWith('more than')) throw tooManyRowsError();
    throw fileError('CSV_SYNTAX', 'The file is not valid CSV', (err as Error).message);
  }
  const header = records.shift()?.map((h) => h.trim().toLowerCase());
  if (!header || !['message', 'date', 'time'].every((c) => header.includes(c))) {
    throw fileError('CSV_HEADER', `The first line of the CSV file must name its columns: ${CSV_COLUMNS.join(',')}`);
  }
  return records.map((cells, i) => {
    const fields: Record<string, unknown> = {};
    header.forEach((name, col) => {
      if ((CSV_COLUMNS as readonly string[]).includes(name)) fields[name] = unguardCell(cells[col] ?? '');
    });
    const row: RawRow = { row: i + 1, fields };
    const destinations = String(fields.destinations ?? '').trim();
    if (destinations === '') fields.destinations = [];
    else {
      try {
        fields.destinations = JSON.parse(destinations) as unknown;
      } catch {
        row.error = new AppError('INVALID_DESTINATION', 'destinations must be a JSON array such as [{"type":"discord_dm","metadata":{}}]');
      }
    }
    if ('exceptions' in fields) fields.exceptions = csvInstants(String(fields.exceptions));
    if ('alerts' in fields) fields.alerts = csvAlerts(String(fields.alerts));
    if (fields.rrule === '') fields.rrule = null;
    if (fields.timezone === '') delete fields.timezone;
    return row;
  });
}

/**
 * A CSV cell holding a list: items separated by spaces, commas or semicolons, or a JSON array
 * (parsed; left as text when it is not JSON, for the checks of a create to refuse).
 */
function csvList(cell: string): { json: unknown } | { items: string[] } {
  const text = cell.trim();
  if (text.startsWith('[')) {
    try {
      return { json: JSON.parse(text) as unknown };
    } catch {
      return { json: text };
    }
  }
  return { items: text === '' ? [] : text.split(/[\s,;]+/) };
}

/** A CSV cell of skipped occurrences: instants, as csvList reads them. */
function csvInstants(cell: string): unknown {
  const list = csvList(cell);
  return 'json' in list ? list.json : list.items;
}

/**
 * A CSV cell of alerts: minutes before each occurrence, as the export writes them (`1440 15`), or
 * a JSON array of { before_minutes }. What is not a number is left for the checks of a create to
 * refuse, with their code (ALERTS_INVALID).
 */
function csvAlerts(cell: string): unknown {
  const list = csvList(cell);
  return 'json' in list ? list.json : list.items.map((m) => ({ before_minutes: /^-?\d+$/.test(m) ? Number(m) : m }));
}
