// Runs on PostgreSQL only: two instances' pools racing for the account's row lock; SQLite's single writer never needs it.
/**
 * At most 10 passkeys per account (docs/security.md "Passkeys"), raced: twelve registrations of one
 * account, started while it had none, finish at once on two instances (two handles, each with its
 * own pool, on one database, READ COMMITTED). Exactly ten are kept; the others are 409
 * PASSKEY_LIMIT. Without the account lock around the count and the insert, more get in.
 */
import { randomUUID } from 'node:crypto';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  finishPasskeyRegistration,
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_TTL_MS,
  type PasskeyChallenge,
  relyingPartyOf,
  startPasskeyRegistration,
} from '../../../../server/accounts/passkeys.ts';
import { RateWindow } from '../../../../server/coordination/rate-window.ts';
import { SharedRecordStore } from '../../../../server/coordination/shared-records.ts';
import type { DatabaseHandle } from '../../../../server/db/connection.ts';
import { AppError } from '../../../../server/errors.ts';
import { SoftwareAuthenticator } from '../../../helpers/software-authenticator.ts';
import { openRacingInstances, type RacingInstances } from '../../../helpers/racing-instances.ts';

const PUBLIC_URL = 'http://localhost:4173';
let instances: RacingInstances | undefined;
let a: DatabaseHandle;
let b: DatabaseHandle;
beforeAll(async () => {
  instances = await openRacingInstances();
  ({ a, b } = instances);
});
afterAll(async () => {
  await instances?.close();
});

describe('the passkey limit on two instances', () => {
  it('twelve registrations finishing at once keep ten (account row lock around the count and the insert)', async () => {
    const id = randomUUID();
    const now = new Date().toISOString();
    const account = { id, email: `${id}@example.com`, username: 'racer' };
    await a.db.insertInto('accounts').values({ ...account, email_normalized: account.email, timezone: 'UTC', locale: null, created_at: now, updated_at: now }).execute();
    const rp = relyingPartyOf(PUBLIC_URL);
    const store = (h: DatabaseHandle) => new SharedRecordStore<PasskeyChallenge>(h.db, 'passkey_registration', PASSKEY_CHALLENGE_TTL_MS);
    const perAccount = new RateWindow(a.db, 'passkey_registration_options', 100, 60_000);
    // All started while the account had none: each start was allowed.
    const started = [];
    for (let i = 0; i < MAX_PASSKEYS + 2; i++) started.push(await startPasskeyRegistration(a.db, store(a), rp, account, perAccount));
    const answers = started.map((s) => ({ ticket: s.ticket, response: new SoftwareAuthenticator(PUBLIC_URL).register(s.options) }));

    const outcomes = await Promise.allSettled(
      answers.map((answer, i) => {
        const h = i % 2 ? b : a;
        return finishPasskeyRegistration(h.db, store(h), rp, { accountId: id, ticket: answer.ticket, name: `Key ${i}`, response: answer.response as RegistrationResponseJSON });
      }),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(MAX_PASSKEYS);
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as unknown);
    expect(refused).toHaveLength(2);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(AppError);
      expect((reason as AppError).code).toBe('PASSKEY_LIMIT');
    }
    const kept = await b.db.selectFrom('passkeys').select('id').where('account_id', '=', id).execute();
    expect(kept).toHaveLength(MAX_PASSKEYS);
  });
});
