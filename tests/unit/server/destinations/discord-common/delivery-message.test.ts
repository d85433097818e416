import { describe, expect, it } from 'vitest';
import { buildDeliveryMessage, remindTooCustomId } from '../../../../../server/destinations/discord-common/delivery-message.ts';

const base = { reminderId: 'r-1', message: 'Stand-up', locale: 'en-US', nonce: 'msg_0123456789abcdef0123456789' };
const rows = (body: ReturnType<typeof buildDeliveryMessage>) => (body.components as any[]).map((row) => row.components.map((c: any) => [c.custom_id, c.label]));

describe('the buttons of a delivered message and "Remind me too"', () => {
  it('a channel delivery offering it: the owner\'s row, then "Remind me too" on its own row', () => {
    const body = buildDeliveryMessage({ ...base, remindMeToo: true });
    expect(rows(body)).toHaveLength(2);
    expect(rows(body)[1]).toEqual([['rtoo:join:r-1', 'Remind me too']]);
  });

  it('a subscriber\'s DM: only "Stop reminding me", in the subscriber\'s language (never the owner\'s Snooze or Done)', () => {
    expect(rows(buildDeliveryMessage({ ...base, locale: 'fr', subscriber: true }))).toEqual([[['rtoo:stop:r-1', 'Ne plus me le rappeler']]]);
    expect(rows(buildDeliveryMessage({ ...base, locale: 'es', subscriber: true }))).toEqual([[['rtoo:stop:r-1', 'Dejar de recordármelo']]]);
  });

  it('a test send has no buttons, whatever the destination offers', () => {
    expect(buildDeliveryMessage({ ...base, remindMeToo: true, buttons: false }).components).toEqual([]);
    expect(buildDeliveryMessage({ ...base, subscriber: true, buttons: false }).components).toEqual([]);
  });

  it('custom ids fit Discord\'s 100 characters with a uuid', () => {
    expect(remindTooCustomId('unfollow', '019381b2-3c4d-7e8f-9a0b-1c2d3e4f5a6b').length).toBeLessThanOrEqual(100);
  });
});
