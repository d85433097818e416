import { describe, expect, it } from 'vitest';
import { actionTokenOfReference, actionTokenReference, parseActionTokenReference, signActionToken, verifyActionToken } from '../../../../server/lib/action-token.ts';

const fields = { deliveryId: '4d7c3f7e-1b8a-4f0e-9a55-0f6f1d2c3b4a', reminderId: '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', occurrenceMs: 1_795_000_000_000, action: 'snooze10' as const };

describe('action tokens', () => {
  it('verifies what it signed', () => {
    expect(verifyActionToken('k1', signActionToken('k1', fields))).toEqual(fields);
  });

  it('stays under the router’s 100-character path parameter', () => {
    expect(signActionToken('k1', fields).length).toBeLessThan(100);
  });

  it('refuses another key, a changed field and garbage', () => {
    const token = signActionToken('k1', fields);
    expect(verifyActionToken('k2', token)).toBeNull();
    const [payload, mac] = token.split('.');
    const bytes = Buffer.from(payload!, 'base64url');
    for (const at of [0, 5, 20, 38, 41]) {
      const changed = Buffer.from(bytes);
      changed[at] = changed[at]! ^ 1;
      expect(verifyActionToken('k1', `${changed.toString('base64url')}.${mac}`), `byte ${at}`).toBeNull();
    }
    for (const bad of ['', '.', 'abc', `${token}.x`, `${payload}.`, `.${mac}`, 'a'.repeat(500), `${payload}.${mac}x`]) expect(verifyActionToken('k1', bad)).toBeNull();
  });

  it('signs only UUID ids', () => {
    expect(() => signActionToken('k1', { ...fields, reminderId: 'r1' })).toThrow();
  });

  describe('references (Telegram callback_data)', () => {
    const otherDelivery = '0f0e0d0c-0b0a-4908-8706-050403020100';

    it('fit in 64 bytes and give back the same token with the delivery\'s reminder and occurrence', () => {
      for (const action of ['snooze10', 'tomorrow', 'done'] as const) {
        const token = signActionToken('k1', { ...fields, action });
        const reference = actionTokenReference(token);
        expect(Buffer.byteLength(reference)).toBeLessThanOrEqual(64);
        expect(reference).toMatch(/^a[0-9][A-Za-z0-9_-]{44}$/);
        const parsed = parseActionTokenReference(reference)!;
        expect(parsed).toMatchObject({ deliveryId: fields.deliveryId, action });
        const rebuilt = actionTokenOfReference(parsed, { reminderId: fields.reminderId, occurrenceMs: fields.occurrenceMs })!;
        expect(rebuilt).toBe(token);
        expect(verifyActionToken('k1', rebuilt)).toEqual({ ...fields, action });
      }
    });

    it('rebuilt with another reminder, occurrence, delivery or action, fail the signature', () => {
      const parsed = parseActionTokenReference(actionTokenReference(signActionToken('k1', fields)))!;
      const verify = (reference: typeof parsed, delivery = { reminderId: fields.reminderId, occurrenceMs: fields.occurrenceMs }) => verifyActionToken('k1', actionTokenOfReference(reference, delivery)!);
      expect(verify(parsed, { reminderId: '1a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', occurrenceMs: fields.occurrenceMs })).toBeNull();
      expect(verify(parsed, { reminderId: fields.reminderId, occurrenceMs: fields.occurrenceMs + 1 })).toBeNull();
      expect(verify({ ...parsed, deliveryId: otherDelivery })).toBeNull();
      expect(verify({ ...parsed, action: 'done' })).toBeNull();
    });

    it('refuse what is not a reference', () => {
      const reference = actionTokenReference(signActionToken('k1', fields));
      for (const bad of ['', 'a', 'x' + reference.slice(1), 'a9' + reference.slice(2), reference + 'x', reference.slice(0, -1), `${reference.slice(0, 10)}.${reference.slice(11)}`]) {
        expect(parseActionTokenReference(bad), bad).toBeNull();
      }
    });
  });
});
