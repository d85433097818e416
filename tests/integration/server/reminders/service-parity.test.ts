/**
 * The API and the bot are two adapters over one reminders service: the same input gives the same
 * stored reminder and the same error codes, whichever door it came through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../../../server/discord/i18n.ts';
import { accountOf, command, ids, reminderRows, sessionFor, startBotEnv, type BotEnv } from '../../../helpers/bot-harness.ts';
import { client } from '../../../helpers/server.ts';

let env: BotEnv;
let api: ReturnType<typeof client>;
let accountId: string;

beforeAll(async () => {
  env = await startBotEnv();
  // Alice's account comes from her first command; the API then acts for the same account.
  await command(env.fake, { userId: ids.alice, name: 'timezone', options: [{ name: 'zone', value: 'Europe/Paris' }] });
  accountId = (await accountOf(env.app, ids.alice))!.id;
  api = client(env.server.url, await sessionFor(env.app, accountId));
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
});

const remind = (options: Array<{ name: string; value: string }>) => command(env.fake, { userId: ids.alice, name: 'remind', options, locale: 'en-US' });

/** What a reminder is, without what differs between two saves (ids, creation times). */
async function stored(id: string) {
  const row = (await reminderRows(env.app, accountId)).find((r) => r.id === id)!;
  const destinations = await env.app.db.selectFrom('destinations').select(['type', 'metadata', 'position']).where('reminder_id', '=', id).execute();
  const { id: _id, created_at: _c, updated_at: _u, ...rest } = row;
  return { ...rest, destinations };
}

describe('one service behind the API and /remind', () => {
  it('stores the same reminder for the same input, a time inside the DST gap included', async () => {
    const account = await api.get('/api/account');
    expect(account.body.timezone).toBe('Europe/Paris');

    // 02:30 does not exist in Paris on 2030-03-31: both keep the chosen 02:30, fire at the gap end.
    const viaBot = await remind([
      { name: 'message', value: 'Check the boiler' },
      { name: 'when', value: '2030-03-31 02:30' },
      { name: 'repeat', value: 'DAILY' },
    ]);
    const botId = /reminders\/([\w-]+)/.exec(viaBot.content)?.[1];
    expect(botId, viaBot.content).toBeTruthy();

    const viaApi = await api.post('/api/reminders', {
      message: 'Check the boiler',
      date: '2030-03-31',
      time: '02:30',
      recurrence: 'DAILY',
      destinations: [{ type: 'discord_dm', metadata: {} }],
    });
    expect(viaApi.status).toBe(201);

    const [a, b] = [await stored(botId!), await stored(viaApi.body.id)];
    expect(a).toEqual(b);
    expect(a).toMatchObject({
      local_date: '2030-03-31',
      local_time: '02:30',
      timezone: 'Europe/Paris',
      recurrence_type: 'DAILY',
      remind_at_utc: '2030-03-31T01:00:00.000Z',
      next_fire_utc: '2030-03-31T01:00:00.000Z',
    });
    // The next day is back at the chosen 02:30.
    const occurrences = await api.get(`/api/reminders/${botId}/occurrences?count=2`);
    expect(occurrences.body.occurrences).toEqual(['2030-03-31T01:00:00.000Z', '2030-04-01T00:30:00.000Z']);
  });

  it('answers the same error code: a blank message', async () => {
    const viaApi = await api.post('/api/reminders', { message: '   ', date: '2030-05-01', time: '09:00', destinations: [{ type: 'discord_dm', metadata: {} }] });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body.code).toBe('MESSAGE_REQUIRED');
    const viaBot = await remind([
      { name: 'message', value: '   ' },
      { name: 'when', value: '2030-05-01 09:00' },
    ]);
    expect(viaBot.content).toBe(t('en-US', 'errors.MESSAGE_REQUIRED'));
  });

  it('answers the same error code: a one-off in the past', async () => {
    const viaApi = await api.post('/api/reminders', { message: 'Too late', date: '2020-01-05', time: '08:00', destinations: [{ type: 'discord_dm', metadata: {} }] });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body.code).toBe('REMINDER_IN_PAST');
    const viaBot = await remind([
      { name: 'message', value: 'Too late' },
      { name: 'when', value: '2020-01-05 08:00' },
    ]);
    // The bot's wording of REMINDER_IN_PAST names the parsed time and gives examples.
    expect(viaBot.content).toContain(t('en-US', 'remind.past', { unix: Math.floor(Date.UTC(2020, 0, 5, 7) / 1000), examples: t('en-US', 'remind.examples') }));
  });
});
