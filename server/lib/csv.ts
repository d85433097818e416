/**
 * RFC 4180 CSV: writing (CRLF, quoting fields that need it) and reading (quoted fields with
 * commas, quotes and line breaks), plus the spreadsheet formula guard of exported cells.
 */

/** Quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvRow(values: readonly string[]): string {
  return values.map(csvField).join(',') + '\r\n';
}

/**
 * A cell a spreadsheet would run as a formula (it starts with = + - @, or a tab or CR that some
 * strip first) gets a leading apostrophe. A cell that already starts with apostrophes before such
 * a character gets one more, so that unguardCell gives every cell back exactly.
 */
export function guardCell(value: string): string {
  return /^'*[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function unguardCell(value: string): string {
  return /^'+[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

export class CsvSyntaxError extends Error {}

/** Records of a CSV text (a leading BOM is ignored; LF alone also ends a record; blank lines are skipped). */
export function parseCsv(text: string, maxRecords = Infinity): string[][] {
  const s = text.replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let fieldStarted = false;
  const endRecord = () => {
    record.push(field);
    if (!(record.length === 1 && record[0] === '' && !fieldStarted)) records.push(record);
    if (records.length > maxRecords) throw new CsvSyntaxError(`more than ${maxRecords} records`);
    record = [];
    field = '';
    fieldStarted = false;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        if (i < s.length && s[i] !== ',' && s[i] !== '\r' && s[i] !== '\n') throw new CsvSyntaxError(`unexpected character after a closing quote in record ${records.length + 1}`);
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      fieldStarted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      fieldStarted = true;
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && s[i + 1] === '\n' ? 2 : 1;
    } else {
      field += c;
      fieldStarted = true;
      i++;
    }
  }
  if (quoted) throw new CsvSyntaxError(`a quoted field is never closed (record ${records.length + 1})`);
  if (field !== '' || record.length > 0 || fieldStarted) endRecord();
  return records;
}
