/**
 * RFC 5545 text: writing content lines (escaping, 75-octet folding, CRLF) and reading them back
 * (unfolding, parameters, nested components). Pure; knows nothing of reminders.
 */

/** TEXT value escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newline. */
export function escapeText(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    // Other controls are not allowed in TEXT (3.1: CONTROL excluded, HTAB allowed).
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\n/g, '\\n');
}

export function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** A parameter value: quoted when it holds ; : or , (3.2); DQUOTE itself cannot appear. */
export function paramValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/["\u0000-\u001f\u007f]/g, '');
  return /[;:,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * Folds one content line at 75 octets (3.1): continuation lines start with a space, and a
 * multi-byte UTF-8 character is never split.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  let limit = 75;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > limit) {
      out.push(current);
      current = ' ';
      bytes = 1;
      limit = 75;
    }
    current += ch;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n');
}

/** Content lines -> the calendar text (folded, CRLF-terminated). */
export function serializeLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) out += foldLine(line) + '\r\n';
  return out;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `20260329T010000Z` */
export function utcStamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** `2026-03-29` + `02:30` (or `02:30:15`) -> `20260329T023000` (a local DATE-TIME). */
export function localStamp(date: string, time: string): string {
  const [h = '00', m = '00', s = '00'] = time.split(':');
  return `${date.replaceAll('-', '')}T${h}${m}${s}`;
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface IcsProperty {
  name: string;
  params: Record<string, string>;
  value: string;
}

export interface IcsComponent {
  name: string;
  properties: IcsProperty[];
  components: IcsComponent[];
}

export class IcsSyntaxError extends Error {}

/** One unfolded content line -> name, parameters (names upper-cased) and raw value. */
export function parseContentLine(line: string): IcsProperty {
  let i = 0;
  const nameMatch = /^[A-Za-z0-9-]+/.exec(line);
  if (!nameMatch) throw new IcsSyntaxError(`not a content line: ${line.slice(0, 40)}`);
  const name = nameMatch[0].toUpperCase();
  i = nameMatch[0].length;
  const params: Record<string, string> = {};
  while (line[i] === ';') {
    i++;
    const eq = line.indexOf('=', i);
    if (eq < 0) throw new IcsSyntaxError(`bad parameter in ${name}`);
    const pname = line.slice(i, eq).toUpperCase();
    i = eq + 1;
    const values: string[] = [];
    for (;;) {
      if (line[i] === '"') {
        const end = line.indexOf('"', i + 1);
        if (end < 0) throw new IcsSyntaxError(`unterminated quoted parameter in ${name}`);
        values.push(line.slice(i + 1, end));
        i = end + 1;
      } else {
        let j = i;
        while (j < line.length && line[j] !== ';' && line[j] !== ':' && line[j] !== ',') j++;
        values.push(line.slice(i, j));
        i = j;
      }
      if (line[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    params[pname] = values.join(',');
  }
  if (line[i] !== ':') throw new IcsSyntaxError(`missing ':' in ${name}`);
  return { name, params, value: line.slice(i + 1) };
}

/** Limits so that a hostile file cannot make the parser work without end. */
const MAX_DEPTH = 8;

/** Calendar text -> its top-level components (usually one VCALENDAR). */
export function parseIcs(text: string): IcsComponent[] {
  const raw = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const lines: string[] = [];
  for (const line of raw) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && lines.length > 0) lines[lines.length - 1] += line.slice(1);
    else if (line.length > 0) lines.push(line);
  }
  const roots: IcsComponent[] = [];
  const stack: IcsComponent[] = [];
  for (const line of lines) {
    const prop = parseContentLine(line);
    if (prop.name === 'BEGIN') {
      if (stack.length >= MAX_DEPTH) throw new IcsSyntaxError('components nested too deeply');
      const component: IcsComponent = { name: prop.value.trim().toUpperCase(), properties: [], components: [] };
      (stack.length > 0 ? stack[stack.length - 1]!.components : roots).push(component);
      stack.push(component);
    } else if (prop.name === 'END') {
      const top = stack.pop();
      if (!top || top.name !== prop.value.trim().toUpperCase()) throw new IcsSyntaxError(`END:${prop.value} does not close ${top?.name ?? 'anything'}`);
    } else {
      const top = stack[stack.length - 1];
      if (!top) throw new IcsSyntaxError(`${prop.name} outside any component`);
      top.properties.push(prop);
    }
  }
  if (stack.length > 0) throw new IcsSyntaxError(`${stack[stack.length - 1]!.name} is never closed (END missing)`);
  return roots;
}

export const firstProperty = (c: IcsComponent, name: string) => c.properties.find((p) => p.name === name);
export const allProperties = (c: IcsComponent, name: string) => c.properties.filter((p) => p.name === name);
