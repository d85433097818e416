/** A generic webhook's body template and headers in the dashboard's form (docs/notifications.md "Webhook body templates"). */
import { describe, expect, it } from 'vitest';
import { parseHeaders, parseTemplate } from '../../../../../../server/destinations/webhook/template.ts';
import { EMPTY_SHAPE, fieldOfCode, hasShape, headerRowOf, previewBody, shapeFromMetadata, shapeMetadata } from '../../../../../../web/src/features/reminders/lib/webhook-shape.ts';

describe('webhook shape in the form', () => {
  it('a plain webhook adds nothing to the metadata (Chime sends its own JSON)', () => {
    expect(shapeMetadata(EMPTY_SHAPE)).toEqual({});
    expect(shapeMetadata({ format: 'text', template: '  \n', headers: [{ name: ' ', value: '' }] })).toEqual({});
    expect(hasShape({})).toBe(false);
  });

  it('sends the template with its format, and the header rows as an object (names trimmed, empty rows dropped)', () => {
    const m = shapeMetadata({
      format: 'text',
      template: '⏰ {{message}}',
      headers: [
        { name: ' Authorization ', value: 'Bearer x' },
        { name: '', value: '' },
        { name: 'X-Team', value: 'ops' },
      ],
    });
    expect(m).toEqual({ body_template: '⏰ {{message}}', body_format: 'text', headers: { Authorization: 'Bearer x', 'X-Team': 'ops' } });
    // What the form sends is what the server's own rules accept.
    expect(parseTemplate(m.body_template, m.body_format, 'd')).toEqual({ body_template: '⏰ {{message}}', body_format: 'text' });
    expect(parseHeaders(m.headers, 'd')).toEqual({ authorization: 'Bearer x', 'x-team': 'ops' });
  });

  it('opens an edited webhook with its saved template, format and headers, and gives them back unchanged', () => {
    const saved = { url: 'https://hooks.example.com/x', platform: 'generic' as const, body_template: '{"t": "{{message}}"}', body_format: 'json', headers: { authorization: 'Bearer y' } };
    const shape = shapeFromMetadata(saved);
    expect(shape).toEqual({ format: 'json', template: '{"t": "{{message}}"}', headers: [{ name: 'authorization', value: 'Bearer y' }] });
    expect(hasShape(saved)).toBe(true);
    expect(hasShape({ headers: { a: 'b' } })).toBe(true);
    expect(shapeMetadata(shape)).toEqual({ body_template: saved.body_template, body_format: 'json', headers: saved.headers });
    expect(shapeFromMetadata(undefined)).toEqual(EMPTY_SHAPE);
  });

  it('previews a JSON template with the sample values, escaped as the save escapes them, indented', () => {
    const preview = previewBody('{"text": "⏰ {{message}}", "late": {{late}}, "n": {{ attempt }}}', 'json');
    expect(preview.ok).toBe(true);
    expect(JSON.parse(preview.body)).toEqual({ text: '⏰ Sample "reminder"\nwith a new line', late: false, n: 1 });
    expect(preview.body).toContain('\n  "text"');
  });

  it('previews a text template as is, and says when a JSON template does not give JSON (the save refuses it too)', () => {
    expect(previewBody('{{message}} at {{occurrence_at}}', 'text')).toEqual({ ok: true, body: 'Sample "reminder"\nwith a new line at 2026-01-01T09:00:00.000Z' });
    const broken = previewBody('{"text": {{message}}}', 'json');
    expect(broken.ok).toBe(false);
    expect(broken.body).toBe('{"text": Sample \\"reminder\\"\\nwith a new line}');
    expect(() => parseTemplate('{"text": {{message}}}', 'json', 'd')).toThrow(/not valid JSON/);
  });

  it('puts each refusal under its field, and a header refusal under the row it names', () => {
    expect(fieldOfCode('WEBHOOK_TEMPLATE_INVALID')).toBe('template');
    expect(fieldOfCode('WEBHOOK_HEADER_INVALID')).toBe('headers');
    expect(fieldOfCode('WEBHOOK_URL_INVALID')).toBe('url');
    expect(fieldOfCode('WEBHOOK_TARGET_FORBIDDEN')).toBe('url');
    expect(fieldOfCode('INVALID_DESTINATION')).toBe('form');
    expect(fieldOfCode(null)).toBe('form');
    const rows = [
      { name: 'X-Ok', value: '1' },
      { name: ' Content-Type ', value: 'text/html' },
    ];
    expect(headerRowOf(rows, 'Content-Type')).toBe(1);
    expect(headerRowOf(rows, 'content-type')).toBe(1);
    expect(headerRowOf(rows, 'Host')).toBe(-1);
    expect(headerRowOf(rows, null)).toBe(-1);
  });
});
