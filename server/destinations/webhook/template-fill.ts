/**
 * Filling a webhook body template (docs/notifications.md "Webhook body templates"): the
 * placeholders, the escaping and the sample values a template is tried with. No imports: the
 * dashboard previews a template with this same code (web/src/features/reminders/lib/webhook-shape.ts).
 */

export const TEMPLATE_FIELDS = ['message', 'occurrence_at', 'fired_at', 'reminder_url', 'reminder_id', 'id', 'timezone', 'recurrence', 'late', 'attempt'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type TemplateValues = Record<TemplateField, string | number | boolean>;
export type BodyFormat = 'json' | 'text';

export const MAX_TEMPLATE = 8_000;
export const MAX_HEADERS = 10;
export const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** What a template is tried with when saved, and what the dashboard's preview shows. */
export const TEMPLATE_SAMPLE: TemplateValues = {
  message: 'Sample "reminder"\nwith a new line',
  occurrence_at: '2026-01-01T09:00:00.000Z',
  fired_at: '2026-01-01T09:00:01.000Z',
  reminder_url: 'https://chime.example/reminders/x',
  reminder_id: '00000000-0000-4000-8000-000000000000',
  id: 'msg_sample',
  timezone: 'Europe/Paris',
  recurrence: 'DAILY',
  late: false,
  attempt: 1,
};

function escapeFor(format: BodyFormat, value: string | number | boolean): string {
  if (format === 'text' || typeof value !== 'string') return String(value);
  return JSON.stringify(value).slice(1, -1);
}

export function renderTemplate(template: string, format: BodyFormat, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => escapeFor(format, values[name as TemplateField]));
}
