import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './helpers/server.ts';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.ts';

// Snoozing through the API, as the dashboard and the Discord buttons do, then letting the real scheduler fire.
describe('snooze', () => {
  let server: TestServer;
  let sink: WebhookSink;
  beforeAll(async () => {
    server = await startTestServer();
    sink = await startWebhookSink();
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  async function dailyReminderDueNow(message: string) {
    const user = await signUp(server.url, { timezone: 'Europe/Paris' });
    const created = await user.api.post('/api/reminders', {
      date: '2026-01-05',
      time: '09:00',
      message,
      recurrence: 'DAILY',
      destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/${message}`, platform: 'generic' } }],
    });
    expect(created.status).toBe(201);
    // Make the pending occurrence due now without waiting for 09:00.
    const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    await server.app.db.updateTable('reminders').set({ next_fire_utc: now, next_occurrence_utc: now }).where('id', '=', created.body.id).execute();
    server.app.scheduler.wake();
    return { user, id: created.body.id as string };
  }

  const received = (message: string) => sink.requests.filter((r) => r.path === `/${message}`);

  it('"Snooze" after a delivery fires again once and keeps the daily schedule', async () => {
    const { user, id } = await dailyReminderDueNow('after-delivery');
    await sink.waitFor(sink.requests.length + 1, 5000);
    await server.app.scheduler.drain();
    const afterFirst = (await user.api.get(`/api/reminders/${id}`)).body;
    const nextRegular = afterFirst.next_fire_utc as string;
    expect(Date.parse(nextRegular)).toBeGreaterThan(Date.now());

    const until = new Date(Date.now() + 1500).toISOString();
    const snoozed = await user.api.post(`/api/reminders/${id}/snooze`, { until });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.snoozed_at_utc).not.toBeNull();

    const deadline = Date.now() + 5000;
    while (received('after-delivery').length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const got = received('after-delivery');
    expect(got).toHaveLength(2);
    // A firing of its own: a new webhook-id, keyed by the snooze instant.
    expect(got[1]!.headers['webhook-id']).not.toBe(got[0]!.headers['webhook-id']);
    expect(got[1]!.json.occurrence_at).toBe(snoozed.body.snoozed_at_utc);

    await server.app.scheduler.drain();
    const after = (await user.api.get(`/api/reminders/${id}`)).body;
    expect(after.snoozed_at_utc).toBeNull();
    // The regular occurrence that was already scheduled is not eaten by the snooze.
    expect(after.next_fire_utc).toBe(nextRegular);
  });
});
