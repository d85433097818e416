import { describe, expect, it } from 'vitest';
import { signActionToken, verifyActionToken } from '../../../../server/lib/action-token.ts';

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
});
