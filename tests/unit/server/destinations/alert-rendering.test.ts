/**
 * An alert before a reminder as each destination words it (docs/time.md "Alerts before"): how soon,
 * in the account's language, and no actions on an occurrence that has not come yet. The occurrence's
 * own delivery is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { alertLeadText } from '../../../../server/lib/alert-lead.ts';
import { reminderMail } from '../../../../server/mail/templates.ts';
import { buildDeliveryMessage } from '../../../../server/destinations/discord-common/delivery-message.ts';
import { sendPayload } from '../../../../server/destinations/webhook/payload.ts';
import type { SendContext } from '../../../../server/scheduler/types.ts';

const OCCURRENCE = '2030-01-01T09:00:00.000Z';

function ctx(overrides: Partial<SendContext> = {}, metadata: Record<string, unknown> = { url: 'https://hooks.example/x', platform: 'generic' }): SendContext {
  return {
    deliveryId: 'd1',
    idempotencyKey: 'msg_1',
    attempt: 1,
    reminder: { id: 'r1', message: 'Stand-up', recurrence_type: 'DAILY', timezone: 'Europe/Paris', remind_at_utc: OCCURRENCE },
    account: { id: 'a1', timezone: 'Europe/Paris', locale: 'fr', username: 'ana' },
    destination: { id: 'w1', type: 'webhook', metadata, secret: null },
    occurrenceUtc: OCCURRENCE,
    firedAt: '2030-01-01T08:45:00.010Z',
    late: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}
const bodyOf = (c: SendContext) => {
  const out = sendPayload(c);
  if (!('body' in out)) throw new Error('no body');
  return JSON.parse(out.body) as Record<string, unknown>;
};

describe('alert wording', () => {
  it('says how soon in whole days, hours or minutes, in each language', () => {
    expect(alertLeadText('en', 15)).toBe('in 15 minutes');
    expect(alertLeadText('en', 60)).toBe('in 1 hour');
    expect(alertLeadText('en', 1440)).toBe('in 1 day');
    expect(alertLeadText('fr', 90)).toBe('dans 90 minutes');
    expect(alertLeadText('es', 120)).toBe('dentro de 2 horas');
    expect(alertLeadText(null, 5)).toBe('in 5 minutes');
  });
});

describe('webhook payload of an alert', () => {
  it('generic: type reminder.alert with its alert; the occurrence payload keeps its shape', () => {
    const alert = bodyOf(ctx({ alert: { beforeMinutes: 15 } }));
    expect(alert).toMatchObject({ type: 'reminder.alert', message: 'Stand-up', occurrence_at: OCCURRENCE, alert: { before_minutes: 15, occurrence: OCCURRENCE } });
    const due = bodyOf(ctx());
    expect(due.type).toBe('reminder.due');
    expect('alert' in due).toBe(false);
  });

  it('Discord and Slack webhooks: one line saying how soon', () => {
    expect(bodyOf(ctx({ alert: { beforeMinutes: 15 } }, { url: 'https://discord.example/x', platform: 'discord' })).content).toBe(`<t:${Date.parse(OCCURRENCE) / 1000}:R>: Stand-up`);
    expect(bodyOf(ctx({ alert: { beforeMinutes: 60 } }, { url: 'https://slack.example/x', platform: 'slack' })).text).toBe('dans 1 heure : Stand-up');
  });
});

describe('Discord message of an alert', () => {
  it('a header with <t:…:R> and no buttons', () => {
    const msg = buildDeliveryMessage({ reminderId: 'r1', message: 'Stand-up', locale: 'es', roleId: null, alertOccurrenceMs: Date.parse(OCCURRENCE), occurrenceMs: Date.parse(OCCURRENCE), nonce: 'n' });
    expect(msg.content).toBe(`🔔 **Recordatorio <t:${Date.parse(OCCURRENCE) / 1000}:R>**\nStand-up`);
    expect(msg.components).toEqual([]);
  });
});

describe('email of an alert', () => {
  const base = { message: 'Stand-up', occurrenceUtc: OCCURRENCE, timezone: 'Europe/Paris', late: true, link: null, address: 'a@example.com', username: 'ana', test: false };
  it('the subject says how soon; no late line', () => {
    const fr = reminderMail({ ...base, lang: 'fr', alertMinutes: 15 });
    expect(fr.subject).toBe('Rappel dans 15 minutes : Stand-up');
    expect(fr.text).not.toContain('retard');
    expect(reminderMail({ ...base, lang: 'en', alertMinutes: 1440 }).subject).toBe('Reminder in 1 day: Stand-up');
    expect(reminderMail({ ...base, lang: 'es', alertMinutes: 30 }).subject).toBe('Recordatorio dentro de 30 minutos: Stand-up');
  });
});
