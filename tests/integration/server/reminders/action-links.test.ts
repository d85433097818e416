import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionLinksFor } from '../../../../server/reminders/action-links.ts';
import { signActionToken } from '../../../../server/lib/action-token.ts';
import { startTestServer, type TestServer } from '../../../helpers/server.ts';
import { seedAccount, seedReminder } from '../../../helpers/webhook-sink.ts';

let server: TestServer;
let accountId: string;
const MIN = 60_000;
const DAY = 86_400_000;

beforeAll(async () => {
  // No scheduler: the seeded reminders' occurrences lie in the past, and firing them would move them under the test.
  server = await startTestServer({ overrides: { schedulerEnabled: false } });
  accountId = await seedAccount(server.app.db, { locale: 'fr', timezone: 'Europe/Paris' });
});
afterAll(async () => {
  await server?.close();
});

/** A daily reminder that fired a minute ago (its next occurrence tomorrow), and the links of that delivery. */
async function delivered(overrides: { recurrence?: 'DAILY' | 'ONCE'; firedAgoMs?: number } = {}) {
  const occurrence = Math.floor((Date.now() - (overrides.firedAgoMs ?? MIN)) / 1000) * 1000;
  const recurrence = overrides.recurrence ?? 'DAILY';
  const { id } = await seedReminder(server.app.db, {
    accountId,
    at: occurrence,
    recurrence,
    timezone: 'Europe/Paris',
    message: 'Arroser les plantes',
    nextFire: recurrence === 'ONCE' ? null : occurrence + DAY,
  });
  const links = await actionLinksFor(server.app, { deliveryId: randomUUID(), reminderId: id, occurrenceUtc: new Date(occurrence).toISOString() });
  return { id, occurrence, links };
}

const reminder = (id: string) => server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const local = (url: string) => server.url + new URL(url).pathname;
const tap = (url: string, headers: Record<string, string> = {}) => fetch(local(url), { method: 'POST', headers });

describe('action links', () => {
  it('are absolute links under PUBLIC_URL, one per action, and differ per action', async () => {
    const { links } = await delivered();
    expect(Object.keys(links).sort()).toEqual(['done', 'snooze10', 'tomorrow']);
    for (const url of Object.values(links)) expect(url.startsWith(`${server.config.publicUrl.replace(/\/$/, '')}/a/`)).toBe(true);
    expect(new Set(Object.values(links)).size).toBe(3);
  });

  it('GET shows what the tap will do in the account language, and changes nothing', async () => {
    const { id, links } = await delivered();
    const before = await reminder(id);
    const res = await fetch(local(links.snooze10));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('Reporter ce rappel de 10 minutes ?');
    expect(html).toContain('Arroser les plantes');
    expect(html).toContain('<form method="post"');
    expect(await reminder(id)).toEqual(before);
  });

  it('Snooze moves the reminder 10 minutes ahead, once; a second tap is refused', async () => {
    const { id, links } = await delivered();
    const t0 = Date.now();
    const res = await tap(links.snooze10);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, outcome: 'snoozed' });
    expect(body.text).toMatch(/^Reporté\./);
    const after = await reminder(id);
    const fire = Date.parse(after.next_fire_utc!);
    expect(fire).toBeGreaterThanOrEqual(Math.floor((t0 + 10 * MIN) / 1000) * 1000);
    expect(fire).toBeLessThanOrEqual(Date.now() + 10 * MIN);
    expect(after.snoozed_at_utc).toBe(after.next_fire_utc);

    const again = await tap(links.snooze10);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ ok: false, outcome: 'used', code: 'ACTION_LINK_USED', error: 'This button was already used: nothing more was changed.' });
    expect(await reminder(id)).toEqual(after);
    // And the page now says so instead of offering the button.
    const page = await (await fetch(local(links.snooze10))).text();
    expect(page).toContain('déjà été utilisé');
    expect(page).not.toContain('<form');
  });

  it('Done after Snooze cancels that snooze (the Discord buttons’ rule)', async () => {
    const { id, occurrence, links } = await delivered();
    expect((await tap(links.snooze10)).status).toBe(200);
    const res = await tap(links.done);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: 'done' });
    const after = await reminder(id);
    expect(after.snoozed_at_utc).toBeNull();
    expect(after.next_fire_utc).toBe(new Date(occurrence + DAY).toISOString());
  });

  it('Tomorrow keeps the occurrence’s wall-clock time, a day later', async () => {
    const { id, occurrence, links } = await delivered();
    expect((await tap(links.tomorrow)).status).toBe(200);
    expect((await reminder(id)).next_fire_utc).toBe(new Date(occurrence + DAY).toISOString());
  });

  it('answers a browser with a page in the account language', async () => {
    const { links } = await delivered();
    const res = await tap(links.snooze10, { accept: 'text/html,application/xhtml+xml' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html lang="fr">/);
    expect(html).toContain('Reporté. Le rappel reviendra le');
  });

  it('cannot act on another reminder: a token changed to name it, or signed with another key, is refused', async () => {
    const a = await delivered();
    const b = await delivered();
    const before = await reminder(b.id);
    const token = new URL(a.links.snooze10).pathname.slice(3);
    const [payload, mac] = token.split('.');
    const bytes = Buffer.from(payload!, 'base64url');
    Buffer.from(b.id.replaceAll('-', ''), 'hex').copy(bytes, 17);
    const forged = bytes.toString('base64url');
    const res = await fetch(`${server.url}/a/${forged}.${mac}`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ok: false, outcome: 'invalid' });
    const otherKey = signActionToken('not-the-server-key', { deliveryId: randomUUID(), reminderId: b.id, occurrenceMs: b.occurrence, action: 'snooze10' });
    expect((await fetch(`${server.url}/a/${otherKey}`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${server.url}/a/garbage`, { method: 'POST' })).status).toBe(404);
    expect(await reminder(b.id)).toEqual(before);
    // A's own link still works: the refused attempts did not use it up.
    expect((await tap(a.links.snooze10)).status).toBe(200);
  });

  it('expire with the next occurrence', async () => {
    const { id, links } = await delivered({ firedAgoMs: DAY + MIN });
    const before = await reminder(id);
    const res = await tap(links.snooze10);
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ outcome: 'expired' });
    expect(await reminder(id)).toEqual(before);
  });

  it('of a one-off work after it completed (snooze brings it back), and a deleted reminder is gone', async () => {
    const once = await delivered({ recurrence: 'ONCE' });
    await server.app.db.updateTable('reminders').set({ completed_at: new Date().toISOString() }).where('id', '=', once.id).execute();
    expect((await tap(once.links.snooze10)).status).toBe(200);
    expect((await reminder(once.id)).completed_at).toBeNull();
    const gone = await delivered();
    await server.app.db.deleteFrom('reminders').where('id', '=', gone.id).execute();
    const res = await tap(gone.links.done);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ outcome: 'gone' });
  });

  it('need no session and are not refused for CSRF (the token is the credential)', async () => {
    const { links } = await delivered();
    const res = await fetch(local(links.done), { method: 'POST', headers: { origin: 'https://elsewhere.example', 'content-type': 'text/plain' }, body: '' });
    expect(res.status).toBe(200);
  });
});
