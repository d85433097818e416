/**
 * The "Advanced" part of a generic webhook (docs/notifications.md "Webhook body templates"): its
 * body template, body format and extra headers, between the form's fields and the metadata the
 * API takes and answers. The preview fills the template with the server's own code and sample
 * values (server/destinations/webhook/template-fill.ts), so it shows what the save checks.
 */
import {
  type BodyFormat,
  MAX_HEADERS,
  MAX_TEMPLATE,
  renderTemplate,
  TEMPLATE_FIELDS,
  TEMPLATE_SAMPLE,
} from '../../../../../server/destinations/webhook/template-fill.ts';
import type { DestinationMetadata } from '@/lib/api/reminders';

export { type BodyFormat, MAX_HEADERS, MAX_TEMPLATE, TEMPLATE_FIELDS };

export interface HeaderRow {
  name: string;
  value: string;
}

export interface WebhookShape {
  format: BodyFormat;
  template: string;
  headers: HeaderRow[];
}

export const EMPTY_SHAPE: WebhookShape = { format: 'json', template: '', headers: [] };

/** The form's fields for a webhook's metadata (a saved one's, when it is edited). */
export function shapeFromMetadata(m: Pick<DestinationMetadata, 'body_template' | 'body_format' | 'headers'> | undefined): WebhookShape {
  return {
    format: m?.body_format === 'text' ? 'text' : 'json',
    template: m?.body_template ?? '',
    headers: Object.entries(m?.headers ?? {}).map(([name, value]) => ({ name, value: String(value) })),
  };
}

/** A row with neither a name nor a value is an empty line of the form, not a header. */
const blankRow = (row: HeaderRow) => row.name.trim() === '' && row.value.trim() === '';

/**
 * What the form adds to the metadata: nothing for a plain webhook (the API then sends Chime's own
 * JSON). Names are trimmed; the server refuses bad ones with WEBHOOK_HEADER_INVALID naming them.
 */
export function shapeMetadata(shape: WebhookShape): Pick<DestinationMetadata, 'body_template' | 'body_format' | 'headers'> {
  const rows = shape.headers.filter((row) => !blankRow(row));
  const headers = Object.fromEntries(rows.map((row) => [row.name.trim(), row.value]));
  return {
    ...(shape.template.trim() !== '' ? { body_template: shape.template, body_format: shape.format } : {}),
    ...(rows.length > 0 ? { headers } : {}),
  };
}

/** A template or headers are set: the summary says "custom body", the form opens "Advanced". */
export function hasShape(m: Pick<DestinationMetadata, 'body_template' | 'headers'> | undefined): boolean {
  return Boolean(m?.body_template) || Object.keys(m?.headers ?? {}).length > 0;
}

export type ShapePreview = { ok: true; body: string } | { ok: false; body: string };

/**
 * The body a template gives with the sample values. A JSON template is shown indented when it
 * parses; when it does not, `ok` is false and the body is shown as filled (the save refuses it).
 */
export function previewBody(template: string, format: BodyFormat): ShapePreview {
  const body = renderTemplate(template, format, TEMPLATE_SAMPLE);
  if (format === 'text') return { ok: true, body };
  try {
    return { ok: true, body: JSON.stringify(JSON.parse(body), null, 2) };
  } catch {
    return { ok: false, body };
  }
}

export type ShapeField = 'url' | 'template' | 'headers' | 'form';

/** Under which field a refusal of the check or the save belongs, by its code. */
export function fieldOfCode(code: string | null | undefined): ShapeField {
  if (code === 'WEBHOOK_TEMPLATE_INVALID') return 'template';
  if (code === 'WEBHOOK_HEADER_INVALID') return 'headers';
  if (code === 'WEBHOOK_URL_INVALID' || code === 'WEBHOOK_TARGET_FORBIDDEN') return 'url';
  return 'form';
}

/** The row a header refusal names (`params.name`; header names are case-insensitive), or -1. */
export function headerRowOf(rows: readonly HeaderRow[], name: string | null | undefined): number {
  if (!name) return -1;
  const lower = name.toLowerCase();
  return rows.findIndex((row) => row.name.trim().toLowerCase() === lower);
}
