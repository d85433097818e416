/**
 * The failed-password throttle (server/accounts/login-throttle.ts), driven with a fake clock.
 * Policy: failures count per (account, network), per network, per account and per known device.
 * A network over its budget is slowed for every account; a network that has failed for an account
 * is held by its own cap and by a delay that grows with the account's failures from everywhere;
 * a known device is judged on its own budget only (not locks: delays end a fixed time after the
 * last failure).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import {
  type AttemptThrottle,
  DatabaseAttemptThrottle,
  DEFAULT_LOGIN_THROTTLE,
  networkOf,
  type AttemptGate,
  type ThrottlePolicy,
} from '../../../../server/accounts/login-throttle.ts';
import { useMigratedDatabase } from '../../../helpers/test-database.ts';

const MIN = 60_000;

// The policy, on the real database store the routes use.
const migrated = useMigratedDatabase('chime-throttle-');
let database: DatabaseHandle;
beforeAll(() => {
  database = migrated();
});

let run = 0;

function harnessOf(policy: Partial<ThrottlePolicy> = {}) {
  // Start far from the last harness's times: database rows of earlier tests never overlap.
  let now = 1_000_000 + ++run * 10 * 86_400_000;
  const full = { ...DEFAULT_LOGIN_THROTTLE, ...policy };
  const throttle: AttemptThrottle = new DatabaseAttemptThrottle(database.db, full, () => now);
  return {
    throttle,
    advance: (ms: number) => (now += ms),
    /** One attempt that fails (if let through). */
    async fail(account: string, ip: string): Promise<AttemptGate> {
      return throttle.begin({ account, ip });
    },
    /** One attempt with the right password (if let through). */
    async succeed(account: string, ip: string): Promise<AttemptGate> {
      const gate = await throttle.begin({ account, ip });
      if (gate.allowed) await gate.succeeded();
      return gate;
    },
  };
}

const refusedFor = (gate: AttemptGate) => (gate.allowed ? 0 : gate.retryAfterMs);

describe('login throttle policy', () => {
  const harness = (policy: Partial<ThrottlePolicy> = {}) => harnessOf(policy);

  it('the defaults: 15-minute window, 5 per (account, network), delays after 4 account failures from 1 s and after 10 network failures from 2 s, up to 15 min; 10 per known device', () => {
    expect(DEFAULT_LOGIN_THROTTLE).toEqual({
      windowMs: 15 * MIN,
      maxFailuresPerPair: 5,
      accountFreeFailures: 4,
      accountBaseDelayMs: 1000,
      accountMaxDelayMs: 15 * MIN,
      networkFreeFailures: 10,
      networkBaseDelayMs: 2000,
      networkMaxDelayMs: 15 * MIN,
      maxFailuresPerDevice: 10,
    });
  });

  it('never refuses the owner from a network with no failures, however many failures the account has elsewhere', async () => {
    const h = harness();
    for (let i = 0; i < 200; i++) await h.fail('owner@example.com', `203.0.113.${i % 50}`);
    expect((await h.fail('owner@example.com', '203.0.113.1')).allowed).toBe(false);
    const owner = await h.succeed('owner@example.com', '198.51.100.20');
    expect(owner.allowed).toBe(true);
  });

  it('holds a network after 5 failures for one account until the oldest ages out of the window', async () => {
    const h = harness({ accountFreeFailures: 100 });
    for (let i = 0; i < 5; i++) {
      expect((await h.fail('a@example.com', '192.0.2.1')).allowed).toBe(true);
      h.advance(MIN);
    }
    // First failure at t0, now t0 + 5 min: free again at t0 + 15 min.
    const refused = await h.fail('a@example.com', '192.0.2.1');
    expect(refusedFor(refused)).toBe(10 * MIN);
    expect(refused).toMatchObject({ allowed: false, reason: 'pair' });
    // Refused attempts are not failures: they do not extend anything.
    for (let i = 0; i < 50; i++) await h.fail('a@example.com', '192.0.2.1');
    h.advance(10 * MIN - 1);
    expect((await h.fail('a@example.com', '192.0.2.1')).allowed).toBe(false);
    h.advance(1);
    expect((await h.fail('a@example.com', '192.0.2.1')).allowed).toBe(true);
  });

  it('delays networks that failed, progressively, from the account failures of every network (not a lock)', async () => {
    const h = harness({ accountFreeFailures: 1, accountBaseDelayMs: 1000, accountMaxDelayMs: 8000 });
    const acct = 'victim@example.com';
    expect((await h.fail(acct, '10.0.0.1')).allowed).toBe(true); // 1 failure: free
    expect((await h.fail(acct, '10.0.0.1')).allowed).toBe(true);
    // 2 failures: 1 s after the last one.
    expect(await h.fail(acct, '10.0.0.1')).toMatchObject({ allowed: false, retryAfterMs: 1000, reason: 'account' });
    const delays: number[] = [];
    for (let i = 2; i < 8; i++) {
      expect((await h.fail(acct, `10.0.1.${i}`)).allowed).toBe(true); // a new network is let through
      delays.push(refusedFor(await h.fail(acct, '10.0.0.1')));
    }
    expect(delays).toEqual([2000, 4000, 8000, 8000, 8000, 8000]);
    h.advance(7999);
    expect((await h.fail(acct, '10.0.0.1')).allowed).toBe(false);
    h.advance(1);
    expect((await h.succeed(acct, '10.0.0.1')).allowed).toBe(true);
  });

  it('a network over its budget is slowed for every account, failed on or not, progressively (password spraying)', async () => {
    const h = harness({ networkFreeFailures: 4, networkBaseDelayMs: 1000, networkMaxDelayMs: 8000, accountFreeFailures: 100 });
    const nat = '100.64.1.1';
    for (let i = 0; i < 5; i++) expect((await h.fail(`stranger${i}@example.com`, nat)).allowed).toBe(true);
    // 5 failures, 1 over the budget: 1 s after the last one, for an account never tried from here too.
    expect(await h.fail('colleague@example.com', nat)).toMatchObject({ allowed: false, retryAfterMs: 1000, reason: 'network' });
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      h.advance(refusedFor(await h.fail(`next${i}@example.com`, nat)));
      expect((await h.fail(`next${i}@example.com`, nat)).allowed).toBe(true);
      delays.push(refusedFor(await h.fail('colleague@example.com', nat)));
    }
    expect(delays).toEqual([2000, 4000, 8000, 8000, 8000]);
    // Refused attempts do not extend the delay; another network is not affected.
    for (let i = 0; i < 20; i++) await h.fail(`more${i}@example.com`, nat);
    expect(refusedFor(await h.fail('colleague@example.com', nat))).toBe(8000);
    expect((await h.fail('stranger0@example.com', '100.64.1.2')).allowed).toBe(true);
  });

  it('a known device is judged on its own budget: never slowed by its network or its account, until it fails too often itself', async () => {
    const h = harness({ networkFreeFailures: 2, maxFailuresPerPair: 2, accountFreeFailures: 1, maxFailuresPerDevice: 3 });
    const nat = '100.64.2.2';
    const owner = 'owner@example.com';
    for (let i = 0; i < 10; i++) await h.fail(i % 2 ? owner : `sprayed${i}@example.com`, nat);
    expect((await h.fail(owner, nat)).allowed).toBe(false);
    // The owner's browser: let through at once, flagged.
    const known = await h.throttle.begin({ account: owner, ip: nat, device: 'device-1' });
    expect(known).toMatchObject({ allowed: true, knownDevice: true });
    // Without it, the same account from the same network is still held.
    expect((await h.throttle.begin({ account: owner, ip: nat })).allowed).toBe(false);
    // Its failures (the first one above, and two more) spend its own budget: then it is a stranger.
    expect((await h.throttle.begin({ account: owner, ip: nat, device: 'device-1' })).allowed).toBe(true);
    expect((await h.throttle.begin({ account: owner, ip: nat, device: 'device-1' })).allowed).toBe(true);
    expect((await h.throttle.begin({ account: owner, ip: nat, device: 'device-1' })).allowed).toBe(false);
    // A success from a known device forgives its own failures.
    h.advance(15 * MIN);
    const again = await h.throttle.begin({ account: owner, ip: nat, device: 'device-1' });
    expect(again).toMatchObject({ allowed: true, knownDevice: true });
    if (again.allowed) await again.succeeded();
    for (let i = 0; i < 3; i++) expect((await h.throttle.begin({ account: owner, ip: nat, device: 'device-1' })).allowed).toBe(true);
  });

  it('a success forgives the failures of its own (account, network) only', async () => {
    const h = harness({ accountFreeFailures: 2, accountBaseDelayMs: 60_000 });
    const acct = 'typo@example.com';
    await h.fail(acct, '192.0.2.9'); // attacker
    await h.fail(acct, '198.51.100.1'); // the owner mistypes twice
    await h.fail(acct, '198.51.100.1');
    expect((await h.fail(acct, '198.51.100.1')).allowed).toBe(false);
    h.advance(60_000);
    expect((await h.succeed(acct, '198.51.100.1')).allowed).toBe(true);
    // The owner's typos are gone (1 account failure left: no delay); the attacker's network still counts one.
    await h.fail(acct, '198.51.100.1');
    expect((await h.fail(acct, '198.51.100.1')).allowed).toBe(true);
    expect((await h.fail(acct, '192.0.2.9')).allowed).toBe(false);
  });

  it('attempts in flight count as failures, so parallel guesses do not slip past the counters', async () => {
    const h = harness({ accountFreeFailures: 0, accountBaseDelayMs: 1000 });
    const first = await h.throttle.begin({ account: 'p@example.com', ip: '192.0.2.7' });
    expect(first.allowed).toBe(true);
    const parallel = await Promise.all(Array.from({ length: 20 }, () => h.throttle.begin({ account: 'p@example.com', ip: '192.0.2.7' })));
    expect(parallel.filter((g) => g.allowed)).toHaveLength(0);
    // Elsewhere the owner still gets in.
    expect((await h.succeed('p@example.com', '198.51.100.7')).allowed).toBe(true);
    // The first one turns out right: nothing is held against its network any more.
    if (first.allowed) await first.succeeded();
    expect((await h.throttle.begin({ account: 'p@example.com', ip: '192.0.2.7' })).allowed).toBe(true);
  });

  it('an abandoned attempt (a server error) is not counted', async () => {
    const h = harness({ accountFreeFailures: 0 });
    for (let i = 0; i < 10; i++) {
      const gate = await h.throttle.begin({ account: 'e@example.com', ip: '192.0.2.8' });
      expect(gate.allowed).toBe(true);
      if (gate.allowed) await gate.abandon();
    }
  });

  it('everything ages out after the window', async () => {
    const h = harness({ networkFreeFailures: 3 });
    for (let i = 0; i < 30; i++) await h.fail(`x${i % 3}@example.com`, '192.0.2.10');
    expect((await h.fail('x0@example.com', '192.0.2.10')).allowed).toBe(false);
    h.advance(15 * MIN);
    expect(await h.throttle.begin({ account: 'x0@example.com', ip: '192.0.2.10' })).toMatchObject({ allowed: true, knownDevice: false });
    // The expired rows were deleted (at most once a minute, on an attempt): only the last attempt's 3 rows are left.
    const rows = await database.db.selectFrom('attempt_failures').select('key').where('net', '=', '192.0.2.10').execute();
    expect(rows.length).toBeLessThanOrEqual(3);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped client as its IPv4 address', async () => {
    expect(networkOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(networkOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(networkOf('192.0.2.1')).toBe('192.0.2.1');
    const h = harness({ maxFailuresPerPair: 2, accountFreeFailures: 100 });
    await h.fail('v6@example.com', '2001:db8:1:2::1');
    await h.fail('v6@example.com', '2001:db8:1:2::2');
    expect((await h.fail('v6@example.com', '2001:db8:1:2::abcd')).allowed).toBe(false);
    expect((await h.fail('v6@example.com', '2001:db8:1:3::1')).allowed).toBe(true);
  });

});

describe('the database store', () => {
  it('is shared: a second throttle over the same database sees the first one’s failures', async () => {
    let now = 5_000_000;
    const policy = { ...DEFAULT_LOGIN_THROTTLE, maxFailuresPerPair: 2, accountFreeFailures: 100 };
    const a = new DatabaseAttemptThrottle(database.db, policy, () => now);
    const b = new DatabaseAttemptThrottle(database.db, policy, () => now);
    const key = { account: 'shared@example.com', ip: '203.0.113.9' };
    expect((await a.begin(key)).allowed).toBe(true);
    expect((await b.begin(key)).allowed).toBe(true);
    const third = await a.begin(key);
    expect(third.allowed).toBe(false);
    now += 16 * MIN;
    expect((await b.begin(key)).allowed).toBe(true);
  });
});
