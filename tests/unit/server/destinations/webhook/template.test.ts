import { describe, expect, it } from 'vitest';
import { parseHeaders, parseTemplate, renderTemplate, type TemplateValues } from '../../../../../server/destinations/webhook/template.ts';

const values: TemplateValues = {
  message: 'Say "hi"\\n\n</script>\u2028',
  occurrence_at: '2026-11-27T09:00:00.000Z',
  fired_at: '2026-11-27T09:00:01.000Z',
  reminder_url: 'https://chime.example/reminders/r1',
  reminder_id: 'r1',
  id: 'msg_1',
  timezone: 'Europe/Paris',
  recurrence: 'ONCE',
  late: true,
  attempt: 2,
};

describe('webhook body templates', () => {
  it('escapes every value for a JSON string, so the message cannot break out', () => {
    const body = renderTemplate('{"text": "{{message}}", "at": "{{ occurrence_at }}", "late": {{late}}, "n": {{attempt}}}', 'json', values);
    expect(JSON.parse(body)).toEqual({ text: values.message, at: values.occurrence_at, late: true, n: 2 });
    const injection = renderTemplate('{"text": "{{message}}"}', 'json', { ...values, message: '", "admin": true, "x": "' });
    expect(Object.keys(JSON.parse(injection))).toEqual(['text']);
  });

  it('inserts values as they are in a text template', () => {
    expect(renderTemplate('{{message}} — {{reminder_url}}', 'text', values)).toBe(`${values.message} — ${values.reminder_url}`);
  });

  it('refuses unknown placeholders, a JSON template that is not JSON once filled, and a bad format', () => {
    expect(() => parseTemplate('{"a": "{{mesage}}"}', 'json', 'd')).toThrow(/unknown placeholder \{\{mesage\}\}/);
    expect(() => parseTemplate('{"a": {{message}}}', undefined, 'd')).toThrow(/not valid JSON/);
    expect(() => parseTemplate('x', 'xml', 'd')).toThrow(/json or text/);
    expect(parseTemplate('{{message}} now', 'text', 'd')).toEqual({ body_template: '{{message}} now', body_format: 'text' });
    expect(parseTemplate('', 'json', 'd')).toBeNull();
  });

  it('refuses headers Chime sets, bad names, two-line values and too many', () => {
    expect(parseHeaders({ Authorization: 'Bearer x', 'X-Title': 'Chime' }, 'd')).toEqual({ authorization: 'Bearer x', 'x-title': 'Chime' });
    for (const bad of [{ Host: 'x' }, { 'Content-Type': 'x' }, { 'webhook-signature': 'x' }, { 'bad name': 'x' }, { 'X-A': 'a\r\nX-B: b' }, { 'X-A': 1 }]) {
      expect(() => parseHeaders(bad, 'd')).toThrow();
    }
    expect(() => parseHeaders(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x-h${i}`, 'v'])), 'd')).toThrow(/at most 10/);
  });
});
