/**
 * Action links in reminder emails (issue 31, docs/notifications.md "Action links"): Snooze 10 min,
 * Tomorrow and Done under the message, in both parts, in the account's language; a GET (what mail
 * scanners do to every link) only shows the confirmation page, its button's POST acts, once.
 * Real SMTP server on 127.0.0.1, real scheduler, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { linkIn, type ReceivedMail, type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PUBLIC_URL = 'http://chime.test';
const MIN = 60_000;

/** A date and time (UTC) about two seconds ahead: the reminder fires for real, soon. */
function dueSoon() {
  const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
  const iso = at.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19), timezone: 'UTC' };
}
const later = { date: '2099-01-01', time: '09:00', timezone: 'UTC' };

let sink: SmtpSink;
let server: TestServer;
let fr: Awaited<ReturnType<typeof signUp>>;
const address = `zoe-actions-${Date.now()}@example.com`;

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startTestServer({ env: { SMTP_URL: sink.url, MAIL_FROM: 'chime@example.com', PUBLIC_URL, MAIL_HOURLY_LIMIT: '50' } });
  server.app.scheduler.setOptions({ retryDelaysMs: [30, 30, 30], retryJitter: 0, shutdownTimeoutMs: 200 });
  fr = await signUp(server.url, { username: 'Zoé' });
  await server.app.db.updateTable('accounts').set({ locale: 'fr' }).where('id', '=', fr.id).execute();
  // Confirm the address once: every reminder below mails it.
  const first = await fr.api.post('/api/reminders', { ...later, message: 'Plus tard', destinations: [{ type: 'email', metadata: { address } }] });
  expect(first.status).toBe(201);
  const confirmation = await sink.waitFor((m) => m.to.includes(address));
  const token = new URL(linkIn(confirmation, `${PUBLIC_URL}/confirm-email?token=`)).searchParams.get('token');
  expect((await client(server.url).post('/api/email/confirm', { token })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

async function settle(reminderId: string, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();
    if (rows.length > 0 && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await sleep(20);
  }
}

const LABELS = { snooze10: 'Reporter 10 min', tomorrow: 'Demain', done: 'Terminé' } as const;
type Links = Record<keyof typeof LABELS, string>;

/** The plain-text part's action links, by their French label ("Reporter 10 min : http…"). */
function textLinks(mail: ReceivedMail): Links {
  const find = (label: string) => {
    const line = mail.text.split('\n').find((l) => l.startsWith(`${label} : `));
    if (!line) throw new Error(`no "${label}" link in:\n${mail.text}`);
    return line.slice(label.length + 3);
  };
  return { snooze10: find(LABELS.snooze10), tomorrow: find(LABELS.tomorrow), done: find(LABELS.done) };
}

/** A daily reminder that fires now: its delivered mail, and the links it carries. */
async function deliveredMail(message: string) {
  const created = await fr.api.post('/api/reminders', { ...dueSoon(), recurrence: 'DAILY', message, destinations: [{ type: 'email', metadata: { address } }] });
  expect(created.status).toBe(201);
  const [delivery] = await settle(created.body.id);
  expect(delivery).toMatchObject({ status: 'delivered' });
  const mail = await sink.waitFor((m) => m.to.includes(address) && m.subject === `Rappel : ${message}`);
  return { id: created.body.id as string, mail, links: textLinks(mail) };
}

const reminder = (id: string) => server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The link as the test server answers it: same path, the server's real address instead of PUBLIC_URL. */
const local = (url: string) => server.url + new URL(url).pathname;
const tapPage = (url: string) => fetch(local(url), { method: 'POST', headers: { accept: 'text/html', 'accept-language': 'fr' } });

describe('action links in reminder emails', () => {
  it('a delivered mail carries Snooze 10 min, Tomorrow and Done in both parts, in French, under the message, with the reminder’s link', async () => {
    const { id, mail, links } = await deliveredMail('Sortir les poubelles');
    for (const url of Object.values(links)) expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/a/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(new Set(Object.values(links)).size).toBe(3);
    for (const [action, label] of Object.entries(LABELS)) {
      const url = links[action as keyof Links];
      // The HTML part: the same signed link, its label in French.
      expect(mail.html).toMatch(new RegExp(`<a href="${url.replaceAll('.', '\\.')}"[^>]*>${label}</a>`));
    }
    // Under the message, before the reminder's own link.
    const text = mail.text;
    expect(text.indexOf('Sortir les poubelles')).toBeLessThan(text.indexOf(links.snooze10));
    expect(text.indexOf(links.done)).toBeLessThan(text.indexOf(`Ouvrir le rappel : ${PUBLIC_URL}/reminders/${id}`));
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reminders/${id}"`);
    expect(mail.html.indexOf('Sortir les poubelles')).toBeLessThan(mail.html.indexOf(links.snooze10));
  });

  it('a GET (a mail scanner, or the tap) only shows the confirmation page; its POST snoozes as POST /snooze does; a second use is refused', async () => {
    const { id, links } = await deliveredMail('Arroser les plantes');
    const before = await reminder(id);
    // What Outlook Safe Links or Gmail's proxy do to every link of a message: nothing changes.
    for (const url of Object.values(links)) {
      const page = await fetch(local(url));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
    const confirm = await (await fetch(local(links.snooze10))).text();
    expect(confirm).toMatch(/<html lang="fr">/);
    expect(confirm).toContain('Reporter ce rappel de 10 minutes ?');
    expect(confirm).toContain('Arroser les plantes');
    expect(confirm).toContain('<form method="post"');
    expect(await reminder(id)).toEqual(before);

    // The confirmation's button.
    const t0 = Date.now();
    const done = await tapPage(links.snooze10);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Reporté. Le rappel reviendra le');
    const after = await reminder(id);

    // The same snooze through the API, on a twin reminder: the same outcome.
    const twin = await fr.api.post('/api/reminders', { ...later, recurrence: 'DAILY', message: 'Jumeau', destinations: [{ type: 'email', metadata: { address } }] });
    const snoozed = await fr.api.post(`/api/reminders/${twin.body.id}/snooze`, { minutes: 10 });
    expect(snoozed.status).toBe(200);
    const viaApi = await reminder(twin.body.id);
    for (const row of [after, viaApi]) {
      const fire = Date.parse(row.next_fire_utc!);
      expect(fire).toBeGreaterThanOrEqual(Math.floor((t0 + 10 * MIN) / 1000) * 1000);
      expect(fire).toBeLessThanOrEqual(Date.now() + 10 * MIN);
      expect(row.snoozed_at_utc).toBe(row.next_fire_utc);
    }

    // Used once: the page says so and offers no button; the POST changes nothing more.
    const page = await (await fetch(local(links.snooze10))).text();
    expect(page).toContain('déjà été utilisé');
    expect(page).not.toContain('<form');
    const again = await tapPage(links.snooze10);
    expect(await again.text()).toContain('déjà été utilisé');
    expect(await reminder(id)).toEqual(after);
  });

  it('a link edited to name another reminder is refused with a page, and changes neither', async () => {
    const a = await deliveredMail('Premier rappel');
    const b = await deliveredMail('Second rappel');
    const beforeA = await reminder(a.id);
    const beforeB = await reminder(b.id);
    const [payload, mac] = new URL(a.links.snooze10).pathname.slice(3).split('.');
    const bytes = Buffer.from(payload!, 'base64url');
    Buffer.from(b.id.replaceAll('-', ''), 'hex').copy(bytes, 17);
    const forged = `${PUBLIC_URL}/a/${bytes.toString('base64url')}.${mac}`;

    const shown = await (await fetch(local(forged), { headers: { 'accept-language': 'fr' } })).text();
    expect(shown).toContain('pas valide');
    expect(shown).not.toContain('<form');
    const refused = await tapPage(forged);
    expect(await refused.text()).toContain('pas valide');
    const json = await fetch(local(forged), { method: 'POST' });
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ ok: false, outcome: 'invalid', code: 'ACTION_LINK_INVALID' });
    expect(await reminder(a.id)).toEqual(beforeA);
    expect(await reminder(b.id)).toEqual(beforeB);
  });

  it('a one-off’s mail carries the three links too, and its Tomorrow brings it back a day later, as push links do', async () => {
    const when = dueSoon();
    const created = await fr.api.post('/api/reminders', { ...when, recurrence: 'ONCE', message: 'Une seule fois', destinations: [{ type: 'email', metadata: { address } }] });
    expect(created.status).toBe(201);
    await settle(created.body.id);
    const mail = await sink.waitFor((m) => m.to.includes(address) && m.subject === 'Rappel : Une seule fois');
    const links = textLinks(mail);
    expect((await reminder(created.body.id)).completed_at).not.toBeNull();
    expect((await tapPage(links.tomorrow)).status).toBe(200);
    const after = await reminder(created.body.id);
    expect(after.completed_at).toBeNull();
    expect(after.next_fire_utc).toBe(new Date(Date.parse(`${when.date}T${when.time}Z`) + 86_400_000).toISOString());
  });

  it('a test send carries no action links (there is no delivery to act on), as push test sends', async () => {
    const saved = await fr.api.post('/api/reminders', { ...later, message: 'Pour tester', destinations: [{ type: 'email', metadata: { address } }] });
    const destinationId = saved.body.destinations[0].id as string;
    const res = await fr.api.post(`/api/reminders/${saved.body.id}/destinations/${destinationId}/test`, {});
    expect(res.body).toMatchObject({ ok: true });
    const mail = await sink.waitFor((m) => m.to.includes(address) && m.subject === 'Message de test de Chime');
    expect(mail.text).not.toContain('/a/');
    expect(mail.html).not.toContain('/a/');
    for (const label of Object.values(LABELS)) expect(mail.text).not.toContain(`${label} : `);
  });
});
