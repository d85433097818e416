import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelPendingSnooze } from '../../../../server/reminders/snooze-cancel.ts';
import { signUp, startTestServer, type TestServer } from '../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../helpers/webhook-sink.ts';

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
    await sink.waitForMatching((r) => r.path === '/after-delivery');
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

  // The Discord "Done" button (tests/integration/bot/components.test.ts has the whole flow).
  it('cancelling a pending snooze puts the schedule back: one-off completed or kept, a series on its next occurrence', async () => {
    const user = await signUp(server.url, { timezone: 'Europe/Paris' });
    const create = async (recurrence: string) => {
      const r = await user.api.post('/api/reminders', {
        date: '2030-03-04',
        time: '09:00',
        message: `cancel-${recurrence}`,
        recurrence,
        destinations: [{ type: 'webhook', metadata: { url: `${sink.url}/cancel`, platform: 'generic' } }],
      });
      expect(r.status).toBe(201);
      return r.body as { id: string; account_id: string; next_fire_utc: string };
    };
    const row = (id: string) => server.app.db.selectFrom('reminders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const now = Date.now();
    const later = new Date(Math.ceil(now / 1000) * 1000 + 3_600_000).toISOString();

    // Nothing to cancel.
    const plain = await create('ONCE');
    expect(await cancelPendingSnooze(server.app, plain.account_id, plain.id, now)).toBe(false);

    // A one-off delivered (completed), then snoozed: completed again.
    const once = await create('ONCE');
    await server.app.db.updateTable('reminders').set({ next_fire_utc: null, next_occurrence_utc: null, completed_at: new Date(now).toISOString() }).where('id', '=', once.id).execute();
    await user.api.post(`/api/reminders/${once.id}/snooze`, { until: later });
    expect((await user.api.get(`/api/reminders/${once.id}`)).body.status).toBe('active');
    expect(await cancelPendingSnooze(server.app, once.account_id, once.id, now)).toBe(true);
    expect((await user.api.get(`/api/reminders/${once.id}`)).body).toMatchObject({ status: 'completed', snoozed_at_utc: null, next_fire_utc: null });

    // A one-off snoozed before it was sent: its occurrence is still ahead and stays.
    const ahead = await create('ONCE');
    await user.api.post(`/api/reminders/${ahead.id}/snooze`, { until: new Date(Date.parse(ahead.next_fire_utc) + 600_000).toISOString() });
    expect(await cancelPendingSnooze(server.app, ahead.account_id, ahead.id, now)).toBe(true);
    expect(await row(ahead.id)).toMatchObject({ snoozed_at_utc: null, next_fire_utc: ahead.next_fire_utc, next_occurrence_utc: ahead.next_fire_utc });

    // A daily series whose past occurrence the snooze had taken over: that one is done too.
    const daily = await create('DAILY');
    const past = '2030-03-04T08:00:00.000Z';
    await server.app.db.updateTable('reminders').set({ next_occurrence_utc: past, snoozed_at_utc: later, next_fire_utc: later }).where('id', '=', daily.id).execute();
    const at = Date.parse('2030-03-06T12:00:00.000Z');
    expect(await cancelPendingSnooze(server.app, daily.account_id, daily.id, at)).toBe(true);
    expect(await row(daily.id)).toMatchObject({ snoozed_at_utc: null, next_fire_utc: '2030-03-07T08:00:00.000Z', next_occurrence_utc: '2030-03-07T08:00:00.000Z' });
  });
});
