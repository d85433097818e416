/**
 * Issue 32's "done when" for password spraying (docs/security.md): one network trying a password
 * over many emails is slowed once over its failure budget, with 429 and Retry-After answered
 * before any Argon2 check, while the owner on a browser known for their account (the
 * `chime_device` cookie) signs in at once from that same network. Default policy, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_THROTTLE } from '../../../../server/accounts/login-throttle.ts';
import { argon2Checks } from '../../../helpers/fast-password-hashing.ts';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';

const from = (ip: string, cookie?: string) => ({ 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) });
const deviceCookieOf = (res: { headers: Headers }) => {
  const match = /(?:^|\n)(chime_device=[^;]+)/.exec(res.headers.getSetCookie().join('\n'));
  return match?.[1];
};

describe('password spraying from one network (default policy)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' }, overrides: { loginThrottle: DEFAULT_LOGIN_THROTTLE } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('50 failed sign-ins on 50 emails are slowed after the budget; the owner with a known-device cookie signs in at once', async () => {
    const anon = client(server.url);
    const network = '203.0.113.50';
    const owner = await signUp(server.url);
    // The owner signed in once from this network on their own browser: it keeps the device cookie.
    const first = await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(network));
    expect(first.status).toBe(200);
    const device = deviceCookieOf(first);
    expect(device).toMatch(/^chime_device=[A-Za-z0-9_-]{43}$/);
    expect(first.headers.getSetCookie().find((c) => c.startsWith('chime_device='))).toMatch(/HttpOnly/i);
    expect(first.headers.getSetCookie().find((c) => c.startsWith('chime_device='))).toMatch(/Path=\/api\/auth/i);

    // Half the emails have accounts, half do not: the sprayer cannot tell them apart.
    // One after the other: sign-ins in flight count as failures until their password is checked,
    // so 25 at once from one network would spend its budget.
    const victims: Awaited<ReturnType<typeof signUp>>[] = [];
    for (let i = 0; i < 25; i++) victims.push(await signUp(server.url));
    const emails = victims.flatMap((v, i) => [v.email, `nobody-${i}-${Date.now()}@example.com`]);
    expect(emails).toHaveLength(50);

    const statuses: number[] = [];
    const waits: number[] = [];
    const checksPerAttempt: number[] = [];
    for (const email of emails) {
      const before = argon2Checks();
      const res = await anon.post('/api/auth/login', { email, password: 'Winter2026!' }, from(network));
      checksPerAttempt.push(argon2Checks() - before);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toMatchObject({ code: 'RATE_LIMITED' });
        expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after_seconds));
        waits.push(Number(res.headers.get('retry-after')));
      } else {
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_CREDENTIALS');
      }
    }
    // The budget (10 failures) and one more are checked; then the network is slowed. A guess that
    // comes after a short delay ran out is checked and doubles it, so only a few more get through.
    expect(statuses.slice(0, DEFAULT_LOGIN_THROTTLE.networkFreeFailures + 1).every((s) => s === 401)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(DEFAULT_LOGIN_THROTTLE.networkFreeFailures + 4);
    expect(statuses.slice(-30).every((s) => s === 429)).toBe(true);
    expect(waits.every((w) => w >= 1)).toBe(true);
    // Known and unknown emails cost one Argon2 check each; a slowed attempt costs none.
    statuses.forEach((status, i) => expect(checksPerAttempt[i]).toBe(status === 401 ? 1 : 0));

    // The owner's own browser signs in at once, from the same network (the throttle never holds a
    // request: it answers 429 with Retry-After, so a 200 is a sign-in it let through)...
    const known = await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(network, device));
    expect(known.status).toBe(200);
    // ...while the same password from a browser without the cookie waits like everyone there.
    const stranger = await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(network));
    expect(stranger.status).toBe(429);
    // A device cookie is for the account it signed into, not for another one.
    const borrowed = await anon.post('/api/auth/login', { email: victims[0]!.email, password: victims[0]!.password }, from(network, device));
    expect(borrowed.status).toBe(429);
    // The cookie is renewed with a new token on each sign-in; the old one no longer counts.
    const renewed = deviceCookieOf(known);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(device);
    expect((await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(network, device))).status).toBe(429);
    expect((await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(network, renewed))).status).toBe(200);
    // Another network is not slowed.
    expect((await anon.post('/api/auth/login', { email: victims[1]!.email, password: victims[1]!.password }, from('198.51.100.77'))).status).toBe(200);
  });

  it('a known device that keeps failing loses its pass: it is judged as a stranger after its own budget', async () => {
    const anon = client(server.url);
    const network = '203.0.113.51';
    const owner = await signUp(server.url);
    const device = deviceCookieOf(await anon.post('/api/auth/login', { email: owner.email, password: owner.password }, from(network)));
    // The network is over its budget.
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.networkFreeFailures + 1; i++) {
      await anon.post('/api/auth/login', { email: `spray-${i}-${Date.now()}@example.com`, password: 'Winter2026!' }, from(network));
    }
    expect((await anon.post('/api/auth/login', { email: owner.email, password: 'wrong-password' }, from(network))).status).toBe(429);
    // Someone holding the owner's cookie gets the device's own budget of guesses, no more.
    const answers: number[] = [];
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.maxFailuresPerDevice + 1; i++) {
      answers.push((await anon.post('/api/auth/login', { email: owner.email, password: 'wrong-password' }, from(network, device))).status);
    }
    expect(answers.slice(0, DEFAULT_LOGIN_THROTTLE.maxFailuresPerDevice)).toEqual(Array(DEFAULT_LOGIN_THROTTLE.maxFailuresPerDevice).fill(401));
    expect(answers.at(-1)).toBe(429);
  });
});
