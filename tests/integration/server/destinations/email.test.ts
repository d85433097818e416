/**
 * The `email` destination (docs/operations.md "Email"): an address receives reminders only after the link
 * mailed to it was opened. Real SMTP server on 127.0.0.1, real scheduler, real HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PUBLIC_URL = 'http://chime.test';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
type User = Awaited<ReturnType<typeof signUp>>;

/** A date and time (UTC) about two seconds ahead: the reminder fires for real, soon. */
function dueSoon() {
  const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
  const iso = at.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19), timezone: 'UTC' };
}

const later = { date: '2099-01-01', time: '09:00', timezone: 'UTC' };

let sink: SmtpSink;
let server: TestServer;
let me: User;
let other: User;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ env: { SMTP_URL: sink.url, MAIL_FROM: 'chime@example.com', PUBLIC_URL, MAIL_HOURLY_LIMIT: '50' } });
  server.app.scheduler.setOptions({ retryDelaysMs: [30, 30, 30], retryJitter: 0, shutdownTimeoutMs: 200 });
  me = await signUp(server.url, { username: 'Ada' });
  other = await signUp(server.url);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});
afterEach(() => sink.reject.clear());

async function settle(reminderId: string, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();
    if (rows.length > 0 && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await sleep(20);
  }
}

async function confirm(address: string) {
  const mail = await sink.waitFor((m) => m.to.includes(address) && m.subject.includes('Confirm'));
  const link = linkIn(mail, `${PUBLIC_URL}/confirm-email?token=`);
  const res = await client(server.url).post('/api/email/confirm', { token: tokenOf(link) });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ address });
  return mail;
}

describe('email destinations', () => {
  it('mails a confirmation link when an address is added, and delivers only once it is confirmed', async () => {
    const address = `friend-${Date.now()}@example.com`;
    const created = await me.api.post('/api/reminders', { ...dueSoon(), message: 'Call the dentist', destinations: [{ type: 'email', metadata: { address: address.toUpperCase() } }] });
    expect(created.status).toBe(201);
    expect(created.body.destinations[0]).toMatchObject({ type: 'email', metadata: { address } });

    const confirmation = await sink.waitFor((m) => m.to.includes(address));
    expect(confirmation.subject).toBe('Confirm your address for Chime reminders');
    expect(confirmation.text).toContain('Ada wants Chime to send reminders to this address.');
    const link = linkIn(confirmation, `${PUBLIC_URL}/confirm-email?token=`);
    expect(confirmation.html).toContain(link.replace(/&/g, '&amp;'));
    expect((await me.api.get('/api/email/addresses')).body).toMatchObject({ configured: true, addresses: [{ address, state: 'pending' }] });

    // Not confirmed yet: the delivery fails with its code, and nothing but the confirmation arrived.
    const [failed] = await settle(created.body.id);
    expect(failed).toMatchObject({ status: 'failed', last_error_code: 'EMAIL_NOT_CONFIRMED' });
    expect(sink.messages.filter((m) => m.to.includes(address))).toHaveLength(1);

    const ok = await client(server.url).post('/api/email/confirm', { token: tokenOf(link) });
    expect(ok.body).toEqual({ address });
    expect((await me.api.get('/api/email/addresses')).body.addresses).toMatchObject([{ address, state: 'confirmed' }]);
    const reused = await client(server.url).post('/api/email/confirm', { token: tokenOf(link) });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('CONFIRM_TOKEN_INVALID');

    const second = await me.api.post('/api/reminders', { ...dueSoon(), message: 'Water the <b>plants</b>\n\nand the garden', destinations: [{ type: 'email', metadata: { address } }] });
    expect(second.status).toBe(201);
    const [delivered] = await settle(second.body.id);
    expect(delivered).toMatchObject({ status: 'delivered' });
    const mail = await sink.waitFor((m) => m.to.includes(address) && m.subject.startsWith('Reminder:'));
    expect(mail.subject).toBe('Reminder: Water the <b>plants</b> and the garden');
    expect(mail.text).toContain('Water the <b>plants</b>\n\nand the garden');
    expect(mail.text).toContain(`${PUBLIC_URL}/reminders/${second.body.id}`);
    expect(mail.html).toContain('Water the &lt;b&gt;plants&lt;/b&gt;');
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reminders/${second.body.id}"`);
    expect(mail.text).toContain(`Chime sent this to ${address} because Ada added this address to a reminder.`);
    // Nothing more was mailed for the confirmed address (no second confirmation).
    expect(sink.messages.filter((m) => m.to.includes(address) && m.subject.includes('Confirm'))).toHaveLength(1);
  });

  it('checking an address in the wizard mails nothing; saving the reminder mails the link', async () => {
    const address = `checked-${Date.now()}@example.com`;
    const check = await me.api.post('/api/destinations/check', { type: 'email', metadata: { address } });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ ok: true });
    // The check answered after its preflight: a link it sent would be on its way by now.
    expect((await me.api.get('/api/email/addresses')).body.addresses.filter((a: { address: string }) => a.address === address)).toEqual([]);
    const created = await me.api.post('/api/reminders', { ...later, message: 'Checked first', destinations: [{ type: 'email', metadata: { address } }] });
    expect(created.status).toBe(201);
    await sink.waitFor((m) => m.to.includes(address));
    expect(sink.messages.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  it('mails no link for a create refused on a later destination, nor for an import dry run; the import mails it', async () => {
    const address = `refused-${Date.now()}@example.com`;
    const addressRecords = async () => (await me.api.get('/api/email/addresses')).body.addresses.filter((a: { address: string }) => a.address === address);
    // Port 1 on loopback answers nothing: the ntfy server check fails after the email's own check passed.
    const refused = await me.api.post('/api/reminders', {
      ...later,
      message: 'Never saved',
      destinations: [
        { type: 'email', metadata: { address } },
        { type: 'ntfy', metadata: { server: 'http://127.0.0.1:1', topic: 'chime-email-test' } },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body, JSON.stringify(refused.body)).toMatchObject({ destination: 1 });
    const file = JSON.stringify({ reminders: [{ message: 'Imported', ...later, recurrence: 'ONCE', destinations: [{ type: 'email', metadata: { address } }] }] });
    const dryRun = await me.api.post('/api/reminders/import', { format: 'json', content: file, dry_run: true, mode: 'all_or_nothing' });
    expect(dryRun.body).toMatchObject({ valid: 1, created: 0 });
    // Both answered after every check had run: a link either had started would have a record by now.
    expect(await addressRecords()).toEqual([]);

    const imported = await me.api.post('/api/reminders/import', { format: 'json', content: file, dry_run: false, mode: 'all_or_nothing' });
    expect(imported.body).toMatchObject({ valid: 1, created: 1 });
    await sink.waitFor((m) => m.to.includes(address) && m.subject.includes('Confirm'));
    expect(await addressRecords()).toMatchObject([{ state: 'pending' }]);
    expect(sink.messages.filter((m) => m.to.includes(address))).toHaveLength(1);
  });

  it('writes reminder mails in the account’s language', async () => {
    const fr = await signUp(server.url, { username: 'Zoé' });
    await server.app.db.updateTable('accounts').set({ locale: 'fr' }).where('id', '=', fr.id).execute();
    const address = `zoe-${Date.now()}@example.com`;
    await fr.api.post('/api/reminders', { ...later, message: 'Plus tard', destinations: [{ type: 'email', metadata: { address } }] });
    const confirmation = await confirm(address);
    expect(confirmation.subject).toBe('Confirmez votre adresse pour les rappels Chime');
    const created = await fr.api.post('/api/reminders', { ...dueSoon(), message: 'Sortir les poubelles', destinations: [{ type: 'email', metadata: { address } }] });
    await settle(created.body.id);
    const mail = await sink.waitFor((m) => m.to.includes(address) && m.subject.startsWith('Rappel'));
    expect(mail.subject).toBe('Rappel : Sortir les poubelles');
    expect(mail.text).toContain('Ouvrir le rappel');
    expect(mail.html).toContain('lang="fr"');
  });

  it('a rejected recipient fails for good with EMAIL_REJECTED', async () => {
    const address = `bounce-${Date.now()}@example.com`;
    await me.api.post('/api/reminders', { ...later, message: 'x', destinations: [{ type: 'email', metadata: { address } }] });
    await confirm(address);
    sink.reject.add(address);
    const created = await me.api.post('/api/reminders', { ...dueSoon(), message: 'Bounce', destinations: [{ type: 'email', metadata: { address } }] });
    const [d] = await settle(created.body.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error_code: 'EMAIL_REJECTED' });
    expect(d!.last_error).toContain('550');
  });

  it('confirmation is per account: another account must confirm the same address itself', async () => {
    const address = `shared-${Date.now()}@example.com`;
    await me.api.post('/api/reminders', { ...later, message: 'mine', destinations: [{ type: 'email', metadata: { address } }] });
    await confirm(address);
    expect((await other.api.get('/api/email/addresses')).body.addresses.map((a: { address: string }) => a.address)).not.toContain(address);
    const theirs = await other.api.post('/api/reminders', { ...dueSoon(), message: 'theirs', destinations: [{ type: 'email', metadata: { address } }] });
    const [d] = await settle(theirs.body.id);
    expect(d!.last_error_code).toBe('EMAIL_NOT_CONFIRMED');
    // And another account's reminder stays out of reach.
    expect((await me.api.get(`/api/reminders/${theirs.body.id}`)).status).toBe(404);
  });

  it('confirming turns back on the address’s destinations disabled for failing meanwhile', async () => {
    const address = `late-${Date.now()}@example.com`;
    const created = await me.api.post('/api/reminders', { ...later, message: 'weekly', recurrence: 'WEEKLY', destinations: [{ type: 'email', metadata: { address } }] });
    const destinationId = created.body.destinations[0].id as string;
    // What five EMAIL_NOT_CONFIRMED failures in a row leave behind.
    await server.app.db
      .updateTable('destinations')
      .set({ disabled_at: new Date().toISOString(), disabled_reason: 'The last 5 deliveries failed', disabled_code: 'DESTINATION_FAILING' })
      .where('id', '=', destinationId)
      .execute();
    await confirm(address);
    const after = await me.api.get(`/api/reminders/${created.body.id}`);
    expect(after.body.destinations[0]).toMatchObject({ id: destinationId, disabled_code: null, disabled_reason: null });
  });

  it('sends the link again on request, not twice within a minute', async () => {
    const address = `again-${Date.now()}@example.com`;
    const first = await me.api.post('/api/email/addresses/confirmation', { address });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ address, state: 'pending', sent: true });
    await sink.waitFor((m) => m.to.includes(address));
    const tooSoon = await me.api.post('/api/email/addresses/confirmation', { address });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.code).toBe('RATE_LIMITED');
    // When to come back, in the body and in the header, as every refusal that knows it says.
    expect(tooSoon.body.retry_after_seconds).toBeGreaterThan(0);
    expect(tooSoon.headers.get('retry-after')).toBe(String(tooSoon.body.retry_after_seconds));
    await confirm(address);
    const done = await me.api.post('/api/email/addresses/confirmation', { address });
    expect(done.body).toEqual({ address, state: 'confirmed', sent: false });
  });

  it('a confirmation the mail server refused leaves no link behind: the next request sends one at once', async () => {
    const address = `refused-${Date.now()}@example.com`;
    sink.reject.add(address);
    const refused = await me.api.post('/api/email/addresses/confirmation', { address });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('EMAIL_REJECTED');
    const listed = (await me.api.get('/api/email/addresses')).body.addresses as { address: string }[];
    expect(listed.find((a) => a.address === address)).toBeUndefined();
    sink.reject.delete(address);
    const sent = await me.api.post('/api/email/addresses/confirmation', { address });
    expect(sent.status).toBe(202);
    await confirm(address);
  });

  it('validates addresses and caps email destinations at 5 per reminder', async () => {
    for (const address of ['', 'no-at-sign', 'a@b', 'two@@example.com', 'a b@example.com', 'x@example.com>, y@example.com', `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(260)}.com`, 42]) {
      const res = await me.api.post('/api/reminders', { ...later, message: 'x', destinations: [{ type: 'email', metadata: { address } }] });
      expect(res.status, JSON.stringify(address)).toBe(400);
      expect(res.body).toMatchObject({ code: expect.stringMatching(/EMAIL_INVALID|VALIDATION_FAILED/), error: expect.any(String) });
    }
    const six = Array.from({ length: 6 }, (_, i) => ({ type: 'email', metadata: { address: `cap${i}@example.com` } }));
    const res = await me.api.post('/api/reminders', { ...later, message: 'x', destinations: six });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DESTINATION_LIMIT');
    const bad = await me.api.post('/api/email/addresses/confirmation', { address: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('EMAIL_INVALID');
    const badToken = await client(server.url).post('/api/email/confirm', { token: '' });
    expect(badToken.body).toMatchObject({ code: 'CONFIRM_TOKEN_INVALID', error: expect.any(String) });
    expect((await client(server.url).get('/api/email/addresses')).status).toBe(401);
  });
});

describe('the hourly cap', () => {
  let capped: TestServer;
  beforeAll(async () => {
    capped = await startTestServer({ env: { SMTP_URL: sink.url, MAIL_FROM: 'chime@example.com', PUBLIC_URL, MAIL_HOURLY_LIMIT: '2' } });
  });
  afterAll(async () => {
    await capped?.close();
  });

  it('refuses a third mail within the hour with EMAIL_HOURLY_LIMIT', async () => {
    const user = await signUp(capped.url);
    const stamp = Date.now();
    for (const n of [1, 2]) expect((await user.api.post('/api/email/addresses/confirmation', { address: `cap${n}-${stamp}@example.com` })).status).toBe(202);
    const third = await user.api.post('/api/email/addresses/confirmation', { address: `cap3-${stamp}@example.com` });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('EMAIL_HOURLY_LIMIT');
    expect(third.body.retry_after_seconds).toBeGreaterThan(3000);
  });
});

describe('without SMTP', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('email destinations are refused with MAIL_NOT_CONFIGURED', async () => {
    const user = await signUp(plain.url);
    const res = await user.api.post('/api/reminders', { ...later, message: 'x', destinations: [{ type: 'email', metadata: { address: 'a@example.com' } }] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('MAIL_NOT_CONFIGURED');
    expect((await user.api.get('/api/email/addresses')).body).toEqual({ configured: false, addresses: [] });
    expect((await user.api.post('/api/email/addresses/confirmation', { address: 'a@example.com' })).body.code).toBe('MAIL_NOT_CONFIGURED');
  });
});
