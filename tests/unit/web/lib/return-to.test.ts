/**
 * Where a sign-in returns to (web/src/lib/return-to.ts): only a path of this origin that is not
 * the sign-in itself. `next` comes from the address bar, so anything else would be an open
 * redirect. The browser test (tests/browser/session.test.ts) follows two of these through a real
 * sign-in.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AFTER_LOGIN, expiredLoginPath, returnPathFromSearch, safeReturnPath } from '../../../../web/src/lib/return-to.ts';

beforeAll(() => {
  vi.stubGlobal('window', { location: { origin: 'https://chime.example', pathname: '/home', search: '' } });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('safeReturnPath', () => {
  it('keeps a path of this origin, with its query', () => {
    expect(safeReturnPath('/reminders/abc?tab=history')).toBe('/reminders/abc?tab=history');
    expect(safeReturnPath('/account')).toBe('/account');
  });

  it('refuses other origins however they are written', () => {
    for (const next of ['//evil.example/x', 'https://evil.example/', 'http://chime.example/account', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'javascript:alert(1)', 'evil.example', ' /account']) {
      expect(safeReturnPath(next), JSON.stringify(next)).toBeNull();
    }
  });

  it('refuses the pages a sign-in must not lead back to, and anything overlong or empty', () => {
    for (const next of ['/', '/login', '/login?next=/account', '/auth/callback/discord', '/welcome', '', null, undefined, `/${'a'.repeat(2048)}`]) {
      expect(safeReturnPath(next), String(next).slice(0, 40)).toBeNull();
    }
    // Only those pages: a path that merely starts with their letters is fine.
    expect(safeReturnPath('/loginhelp')).toBe('/loginhelp');
  });

  it('the login address keeps only a safe next, and without one the sign-in goes to the greeting', () => {
    expect(expiredLoginPath('/account')).toBe('/login?reason=expired&next=%2Faccount');
    expect(expiredLoginPath('//evil.example')).toBe('/login?reason=expired');
    expect(returnPathFromSearch('?reason=expired&next=%2F%2Fevil.example')).toBeNull();
    expect(DEFAULT_AFTER_LOGIN).toBe('/welcome');
  });
});
