/** server/lib/reminder-page-url.ts: the one address of a reminder's dashboard page (mails, calendar, Discord). */
import { describe, expect, it } from 'vitest';
import { reminderPageUrl } from '../../../../server/lib/reminder-page-url.ts';

describe('reminderPageUrl', () => {
  it('puts the reminder under /reminders of the public URL', () => {
    expect(reminderPageUrl('https://chime.example.com', '0193a7c2-5f1e-7000-8000-000000000001')).toBe(
      'https://chime.example.com/reminders/0193a7c2-5f1e-7000-8000-000000000001',
    );
  });

  it('keeps a path prefix and never doubles the slash', () => {
    expect(reminderPageUrl('https://example.com/chime/', 'r1')).toBe('https://example.com/chime/reminders/r1');
    expect(reminderPageUrl('http://localhost:3000//', 'r1')).toBe('http://localhost:3000/reminders/r1');
  });

  it('escapes the id as one path segment', () => {
    expect(reminderPageUrl('https://chime.example.com', 'a/b?c#d e')).toBe('https://chime.example.com/reminders/a%2Fb%3Fc%23d%20e');
  });
});
