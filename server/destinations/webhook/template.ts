/**
 * Webhook bodies you can shape (docs/notifications.md "Webhook body templates"): a generic
 * webhook may carry a body template, JSON or text, with `{{placeholders}}`, and extra headers, so
 * a service with an HTTP API can be reached without code. In a JSON template each value is
 * escaped as the inside of a JSON string (write `"{{message}}"`), so a reminder's text can never
 * break out of its string; `{{late}}` and `{{attempt}}` are bare JSON values.
 */
import { AppError } from '../../errors.ts';
import { type BodyFormat, MAX_HEADERS, MAX_TEMPLATE, PLACEHOLDER, renderTemplate, TEMPLATE_FIELDS, TEMPLATE_SAMPLE } from './template-fill.ts';

export { type BodyFormat, MAX_TEMPLATE, renderTemplate, TEMPLATE_FIELDS, type TemplateField, type TemplateValues } from './template-fill.ts';

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** What Chime sets itself, or what would change how the request is framed or where it goes. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-authorization', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);

/** Validates a template when saved: known placeholders only, and a JSON template must give JSON. */
export function parseTemplate(raw: unknown, formatRaw: unknown, where: string): { body_template: string; body_format: BodyFormat } | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new AppError('WEBHOOK_TEMPLATE_INVALID', `${where}.metadata.body_template must be text`);
  if (raw.length > MAX_TEMPLATE) throw new AppError('WEBHOOK_TEMPLATE_INVALID', `${where}.metadata.body_template must be at most ${MAX_TEMPLATE} characters`);
  const format = formatRaw === undefined || formatRaw === null || formatRaw === '' ? 'json' : formatRaw;
  if (format !== 'json' && format !== 'text') throw new AppError('WEBHOOK_TEMPLATE_INVALID', `${where}.metadata.body_format must be json or text`);
  for (const m of raw.matchAll(PLACEHOLDER)) {
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(m[1]!)) {
      throw new AppError('WEBHOOK_TEMPLATE_INVALID', `${where}.metadata.body_template: unknown placeholder {{${m[1]}}} (known: ${TEMPLATE_FIELDS.join(', ')})`, 400, { params: { name: m[1]! } });
    }
  }
  if (format === 'json') {
    try {
      JSON.parse(renderTemplate(raw, 'json', TEMPLATE_SAMPLE));
    } catch (err) {
      throw new AppError('WEBHOOK_TEMPLATE_INVALID', `${where}.metadata.body_template is not valid JSON once filled in: ${(err as Error).message}`);
    }
  }
  return { body_template: raw, body_format: format };
}

/** Extra headers: at most 10, names that are HTTP tokens and not ones Chime sets, values on one line. */
export function parseHeaders(raw: unknown, where: string): Record<string, string> | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('WEBHOOK_HEADER_INVALID', `${where}.metadata.headers must be an object of names and values`);
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length === 0) return null;
  if (entries.length > MAX_HEADERS) throw new AppError('WEBHOOK_HEADER_INVALID', `${where}.metadata.headers may hold at most ${MAX_HEADERS} headers`);
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) throw new AppError('WEBHOOK_HEADER_INVALID', `${where}.metadata.headers: "${name.slice(0, 64)}" is not a header name`, 400, { params: { name: name.slice(0, 64) } });
    if (RESERVED_HEADERS.has(lower)) throw new AppError('WEBHOOK_HEADER_INVALID', `${where}.metadata.headers: ${name} is set by Chime`, 400, { params: { name } });
    if (lower in out) throw new AppError('WEBHOOK_HEADER_INVALID', `${where}.metadata.headers: ${name} is given twice`, 400, { params: { name } });
    if (typeof value !== 'string' || value.length > 1000 || !/^[\t\x20-\x7e\x80-\uffff]*$/.test(value)) {
      throw new AppError('WEBHOOK_HEADER_INVALID', `${where}.metadata.headers: the value of ${name} must be one line of at most 1000 characters`, 400, { params: { name } });
    }
    out[lower] = value;
  }
  return out;
}
