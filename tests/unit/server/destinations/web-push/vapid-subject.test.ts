import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../../server/config.ts';

describe('VAPID_SUBJECT', () => {
  it('takes a mailto: address or an https: URL', () => {
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:admin@example.org' }).vapidSubject).toBe('mailto:admin@example.org');
    expect(loadConfig({ VAPID_SUBJECT: 'https://chime.example.org/contact' }).vapidSubject).toBe('https://chime.example.org/contact');
  });

  it('defaults to an https PUBLIC_URL, else to a placeholder address', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://chime.example.org/' }).vapidSubject).toBe('https://chime.example.org');
    expect(loadConfig({ PUBLIC_URL: 'http://chime.lan:3000' }).vapidSubject).toBe('mailto:webpush@chime.invalid');
    expect(loadConfig({}).vapidSubject).toBe('mailto:webpush@chime.invalid');
  });

  it('refuses anything else at start, naming the setting', () => {
    for (const bad of ['admin@example.org', 'http://chime.example.org', 'mailto:nobody', 'https://localhost']) {
      expect(() => loadConfig({ VAPID_SUBJECT: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ VAPID_SUBJECT: bad }), bad).toThrow(/VAPID_SUBJECT must be a mailto: address or an https: URL/);
    }
  });
});
