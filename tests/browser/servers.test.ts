/**
 * The dashboard's Servers section in a real browser, against the fake Discord: the list with the
 * account's role, a manager pausing and removing a member's reminder behind confirmations that say
 * what happens to the creator, the settings form (its rule then refusing a member), the audit log,
 * and a member's view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../helpers/fake-discord/index.ts';
import { client } from '../helpers/server.ts';
import { linkDiscordAccount, screenshot, useE2E } from './helpers.ts';

const PUBLIC_URL = 'http://localhost:5173';
const OWNER = '100000000000000001';
const MEMBER = '100000000000000002';
const MEMBER_2 = '100000000000000003';
const GUILD = '1187000000000001000';
const CH = { general: '1187000000000001101', events: '1187000000000001102' };
const ROLE = { mods: '1187000000000001201' };
const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-03-10`;

let fake: FakeDiscord;
const env: Record<string, string> = {};

beforeAll(async () => {
  fake = await startFakeDiscord({ botUsername: 'Chime' });
  Object.assign(env, { DISCORD_TOKEN: fake.botToken, DISCORD_CLIENT_ID: fake.clientId, DISCORD_CLIENT_SECRET: fake.clientSecret, DISCORD_API_URL: fake.apiUrl, PUBLIC_URL });
  fake.addUser({ id: OWNER, username: 'owner', email: 'owner@discord.example' });
  fake.addUser({ id: MEMBER, username: 'member', email: 'member@discord.example' });
  fake.addUser({ id: MEMBER_2, username: 'member2', email: 'member2@discord.example' });
  fake.addGuild({
    id: GUILD,
    name: 'Demo Server',
    ownerId: OWNER,
    roles: [{ id: ROLE.mods, name: 'Mods', permissions: PermissionFlags.ManageGuild }],
    channels: [
      { id: CH.general, name: 'general' },
      { id: CH.events, name: 'events' },
    ],
    members: [
      { userId: MEMBER, roles: [] },
      { userId: MEMBER_2, roles: [] },
    ],
  });
});

afterAll(async () => {
  await fake?.close();
});

const e2e = useE2E({ env });

const channelReminder = (channelId: string, message: string) => ({
  date: FUTURE_DATE,
  time: '09:00',
  message,
  recurrence: 'WEEKLY',
  timezone: 'UTC',
  destinations: [
    { type: 'discord_channel', metadata: { guild_id: GUILD, channel_id: channelId } },
    { type: 'webhook', metadata: { url: 'http://127.0.0.1:8089/hook', platform: 'generic' } },
  ],
});

describe('Servers section', () => {
  it("a manager sees the server's reminders, pauses and removes one with confirmations, sets a rule and reads the audit log", async () => {
    const owner = await e2e.signUp();
    await linkDiscordAccount(e2e.server.url, fake, owner, OWNER);
    const member = await e2e.signUp();
    await linkDiscordAccount(e2e.server.url, fake, member, MEMBER);
    const created = await member.api.post('/api/reminders', channelReminder(CH.general, 'Weekly raid'));
    expect(created.status).toBe(201);

    const { page } = await e2e.signedInPage({ user: owner });
    await page.goto(e2e.url('/home'));
    await page.getByRole('link', { name: 'Servers' }).first().click();
    const card = page.getByTestId(`server-${GUILD}`);
    await expect.poll(() => card.textContent()).toContain('Demo Server');
    expect(await card.textContent()).toContain('Manager');
    expect(await card.textContent()).toContain('1 reminder');
    await card.click();

    const row = page.getByTestId('server-reminder').filter({ hasText: 'Weekly raid' });
    await row.waitFor();
    expect(await row.textContent()).toContain('#general');
    expect(await row.textContent()).toContain('by member');
    // The creator's webhook is never shown to managers.
    expect(await page.content()).not.toContain('127.0.0.1:8089');

    await row.getByTestId('action-pause').click();
    const description = page.getByTestId('server-action-description');
    await description.waitFor();
    expect(await description.textContent()).toContain('member keeps their other destinations');
    await page.getByTestId('server-action-confirm-button').click();
    await expect.poll(() => row.textContent()).toContain('Paused');
    expect((await member.api.get(`/api/reminders/${created.body.id}`)).body.destinations[0].server_paused).toBe(true);

    await row.getByTestId('action-delete').click();
    await page.getByTestId('server-action-confirm-button').click();
    await page.getByTestId('server-reminders-empty').waitFor();
    const mine = (await member.api.get(`/api/reminders/${created.body.id}`)).body;
    expect(mine.destinations.map((d: { type: string }) => d.type)).toEqual(['webhook']);
    expect(mine.server_notice).toContain('Demo Server');

    await page.getByTestId('tab-settings').click();
    await screenshot(page, 'server-settings');
    await page.getByTestId('settings-who-can-create').selectOption('managers');
    // @everyone mentions: allowed by default, turned off here for members.
    const everyoneMention = page.getByTestId('settings-everyone-mention');
    expect(await everyoneMention.getAttribute('aria-checked')).toBe('true');
    await page.getByLabel('Members may mention @everyone').click();
    expect(await everyoneMention.getAttribute('aria-checked')).toBe('false');
    await page.getByTestId('settings-save').click();
    await page.getByText('Settings saved.').waitFor();
    expect((await owner.api.get(`/api/servers/${GUILD}/settings`)).body).toMatchObject({ who_can_create: 'managers', everyone_mention: false });
    const refused = await member.api.post('/api/reminders', channelReminder(CH.events, 'Not allowed'));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('SERVER_RULE_WHO_CAN_CREATE');

    await page.getByTestId('tab-audit').click();
    const actions = page.getByTestId('audit-entry');
    await expect.poll(() => actions.count()).toBe(4);
    expect(await actions.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual(['settings', 'delete', 'pause', 'create']);
    expect(await actions.nth(0).textContent()).toContain('changed the settings');
    expect(await actions.nth(0).textContent()).toContain('Who can make reminders here');
    expect(await actions.nth(0).textContent()).toContain('@everyone mentions');
    expect(await actions.nth(2).textContent()).toContain('paused“Weekly raid” in this server');

    // Worded in the reader's language, not in the server's English.
    const { page: french } = await e2e.signedInPage({ user: owner, storage: { language: 'fr' } });
    await french.goto(e2e.url(`/servers/${GUILD}`));
    await french.getByTestId('tab-audit').click();
    const entries = french.getByTestId('audit-entry');
    await expect.poll(() => entries.count()).toBe(4);
    expect(await entries.nth(0).textContent()).toContain('a modifié les paramètresQui peut créer des rappels ici');
    expect(await entries.nth(2).textContent()).toContain('a mis en pause« Weekly raid » dans ce serveur');
    expect(await entries.nth(3).textContent()).not.toContain('Created');
  });

  it('a member sees the server without its reminders or rules', async () => {
    const member = await e2e.signUp();
    await linkDiscordAccount(e2e.server.url, fake, member, MEMBER_2);
    const { page } = await e2e.signedInPage({ user: member });
    await page.goto(e2e.url('/servers'));
    const card = page.getByTestId(`server-${GUILD}`);
    await card.waitFor();
    expect(await card.textContent()).toContain('Member');
    await card.click();
    await page.getByTestId('server-member-note').waitFor();
    expect(await page.getByTestId('tab-settings').count()).toBe(0);
    // The API agrees whatever the page shows.
    expect((await client(e2e.server.url, member.token).get(`/api/servers/${GUILD}/settings`)).body.code).toBe('NOT_SERVER_MANAGER');
  });
});
