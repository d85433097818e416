// Runs on SQLite only: which messages read as blank does not depend on the database (vitest.config.ts).
/**
 * A message made only of invisible characters (NUL, controls, format characters such as zero-width
 * spaces, whitespace) reads as empty wherever it is delivered: it is refused like a blank one.
 * A message with visible content is stored exactly as before (trimmed of surrounding whitespace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../server/errors.ts';
import { parseMessage } from '../../../../server/reminders/input.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

const BLANK_LOOKING: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['NULs and spaces', ' \u0000 \u0000 '],
  ['C0 controls', '\u0001\u0002\u0007\u001b\u001f'],
  ['DEL and C1 controls', '\u007f\u0080\u0085\u009f'],
  ['zero-width space', '\u200b'],
  ['zero-width non-joiner and joiner', '\u200c\u200d'],
  ['word joiner', '\u2060'],
  ['byte order mark', '\ufeff'],
  ['all the zero-width ones', '\u200b\u200c\u200d\u2060\ufeff'],
  ['bidi controls', '\u202e\u200b\u2066\u2069\u200e\u200f'],
  ['soft hyphen', '\u00ad'],
  ['tag characters', '\u{e0020}\u{e0041}\u{e007f}'],
  ['variation selectors', '\ufe0f\ufe0e'],
  ['Hangul fillers', '\u3164\u115f\u1160\uffa0'],
  ['braille blank', '\u2800\u2800'],
  ['combining grapheme joiner', '\u034f'],
  ['no-break and ideographic spaces', '\u00a0\u3000\u2007\u202f'],
  ['line and paragraph separators', '\u2028\u2029'],
  ['tabs and newlines', '\t\n\r\u000b\u000c'],
  ['lone surrogate', '\ud800'],
  ['a mix', ' \u200b\u0000\t\u2060\ufeff\u00a0\u3164 '],
];

describe('parseMessage', () => {
  it.each(BLANK_LOOKING)('refuses %s with MESSAGE_REQUIRED', (_name, message) => {
    let thrown: unknown;
    try {
      parseMessage(message);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe('MESSAGE_REQUIRED');
    expect((thrown as AppError).message).toBe('Message is required');
  });

  it.each([
    ['plain text', 'Stand-up', 'Stand-up'],
    ['text around zero-width characters', '\u200bhi\u200b', '\u200bhi\u200b'],
    ['surrounding whitespace is trimmed as before', '  hello  ', 'hello'],
    ['an emoji with a variation selector', '\u2764\ufe0f', '\u2764\ufe0f'],
    ['a joined emoji sequence', '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}', '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}'],
    ['a single visible character among invisible ones', '\u200b.\u200b', '\u200b.\u200b'],
    ['a combining mark on a letter', 'e\u0301', 'e\u0301'],
    ['text with an embedded newline and tab', 'line 1\n\tline 2', 'line 1\n\tline 2'],
    ['CJK text', '\u4f1a\u8b70', '\u4f1a\u8b70'],
  ])('keeps %s exactly', (_name, message, stored) => {
    expect(parseMessage(message)).toBe(stored);
  });

  it('still refuses non-strings and counts the length of visible messages as before', () => {
    for (const value of [undefined, null, 42, {}, []]) expect(() => parseMessage(value)).toThrow('Message is required');
    expect(parseMessage('x'.repeat(2000))).toHaveLength(2000);
    expect(() => parseMessage('x'.repeat(2001))).toThrow(/at most 2000/);
  });
});

describe('blank-looking messages over the API', () => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { schedulerEnabled: false } });
    user = await signUp(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses them on create and on update, and stores visible ones exactly', async () => {
    for (const [, message] of BLANK_LOOKING.slice(0, 10)) {
      const res = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message });
      expect(res.status, JSON.stringify(message)).toBe(400);
      // A NUL is refused before the message is read, the same on SQLite and PostgreSQL (no-nul-text.ts).
      if (message.includes('\u0000')) expect(res.body).toEqual({ error: 'body.message contains the NUL character (U+0000), which cannot be stored', code: 'VALIDATION_FAILED' });
      else expect(res.body).toEqual({ error: 'Message is required', code: 'MESSAGE_REQUIRED' });
    }
    const created = await user.api.post('/api/reminders', { date: '2030-07-01', time: '09:00', message: ' \u200bvisible\u200d ' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('\u200bvisible\u200d');
    const update = await user.api.put(`/api/reminders/${created.body.id}`, { date: '2030-07-01', time: '09:00', message: '\u200b\u2060\u3164' });
    expect(update.status).toBe(400);
    expect(update.body.code).toBe('MESSAGE_REQUIRED');
    expect((await user.api.get(`/api/reminders/${created.body.id}`)).body.message).toBe('\u200bvisible\u200d');
    expect((await user.api.get('/api/reminders')).body).toHaveLength(1);
  });
});
