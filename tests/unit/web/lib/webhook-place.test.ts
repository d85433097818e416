/** How a webhook is named in the delivery history and problems (issue 27 #8): two on one host differ. */
import { describe, expect, it } from 'vitest';
import { webhookPlace } from '../../../../web/src/lib/webhook-place.ts';

describe('webhookPlace', () => {
  it('shows the host and the path, so two webhooks on one host read apart', () => {
    expect(webhookPlace('https://hooks.example.com/standup')).toBe('hooks.example.com/standup');
    expect(webhookPlace('https://hooks.example.com/releases?x=1')).toBe('hooks.example.com/releases');
    expect(webhookPlace('http://127.0.0.1:8080/')).toBe('127.0.0.1:8080');
  });

  it('leaves out token-like segments wherever they are (Slack, Discord, a key in the middle)', () => {
    expect(webhookPlace('https://receiver.example.com/in/9f8e7d6c5b4a39281706/events')).toBe('receiver.example.com/in/…/events');
    expect(webhookPlace('https://hooks.slack.com/services/T0123ABC/B0456DEF/abcdefghijklmnopqrstuvwx')).toBe('hooks.slack.com/services/T0123ABC/B0456DEF/…');
    expect(webhookPlace('https://discord.com/api/webhooks/123456789012345678/aB-cD_eFgHiJkLmNoPqRsTuVwXyZ0123456789')).toBe('discord.com/api/webhooks/123456789012345678/…');
  });

  it('cuts a long place at 60 characters, and reads nothing from what is not a URL', () => {
    const place = webhookPlace(`https://example.com/${'a/'.repeat(40)}end`)!;
    expect(place).toHaveLength(60);
    expect(place.endsWith('…')).toBe(true);
    expect(webhookPlace('not a url')).toBeNull();
    expect(webhookPlace(undefined)).toBeNull();
  });
});
