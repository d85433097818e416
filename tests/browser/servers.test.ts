/**
 * The dashboard's Servers section in a real browser, against the fake Discord: the list with the
 * account's role, a manager pausing and removing a member's reminder behind confirmations that say
 * what happens to the creator, the settings form (its rule then refusing a member), the audit log,
 * "Load more" past the list's first page,
 * and a member's view: the rules that hold them, their own reminders there, and the rules in the
 * reminder form's channel step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../helpers/fake-discord/index.ts';
import { client } from '../helpers/server.ts';
import { linkDiscordAccount, openWizardDestinations, screenshot, useE2E } from './helpers.ts';

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
  /** The server's owner (a manager), signed up by the first test. */
  let owner: Awaited<ReturnType<typeof e2e.signUp>>;

  it("a manager sees the server's reminders, pauses and removes one with confirmations, sets a rule and reads the audit log", async () => {
    owner = await e2e.signUp();
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

  it("a member sees the rules that hold them and their own reminders there, and the reminder form's channel step says the rules", async () => {
    // The owner opens the server again, within limits.
    const rules = { manager_role_id: null, default_timezone: null, who_can_create: 'everyone', creator_role_id: null, role_mentions: 'everyone', everyone_mention: true, allowed_channel_ids: [CH.general], max_reminders: 3, former_members: 'keep' };
    expect((await owner.api.put(`/api/servers/${GUILD}/settings`, rules)).status).toBe(200);
    const member = await e2e.signUp();
    await linkDiscordAccount(e2e.server.url, fake, member, MEMBER_2);
    const created = await member.api.post('/api/reminders', channelReminder(CH.general, 'Member standup'));
    expect(created.status).toBe(201);

    const { page } = await e2e.signedInPage({ user: member });
    await page.goto(e2e.url('/servers'));
    const card = page.getByTestId(`server-${GUILD}`);
    await card.waitFor();
    expect(await card.textContent()).toContain('Member');
    await card.click();
    await page.getByTestId('server-member-note').waitFor();
    expect(await page.getByTestId('tab-settings').count()).toBe(0);
    const note = page.getByTestId('server-rules-note');
    await expect.poll(() => note.textContent()).toContain('Reminders may post only in #general.');
    expect(await note.textContent()).toContain('At most 3 reminders per member in this server; you have 1.');
    // Their own reminder, whole, with the usual actions (the reminders routes).
    const mine = page.getByTestId('my-server-reminder').filter({ hasText: 'Member standup' });
    expect(await mine.textContent()).toContain('#general');
    await mine.getByTestId('my-action-pause').click();
    await expect.poll(() => mine.getByTestId('status-badge').getAttribute('data-status')).toBe('paused');
    expect((await member.api.get(`/api/reminders/${created.body.id}`)).body.is_paused).toBe(true);
    await screenshot(page, 'server-member');
    // The API agrees whatever the page shows.
    expect((await client(e2e.server.url, member.token).get(`/api/servers/${GUILD}/settings`)).body.code).toBe('NOT_SERVER_MANAGER');

    // Creating one: the channel step shows the server's rules, and says when a channel is not allowed.
    await openWizardDestinations(page, e2e.server.url, FUTURE_DATE);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-channel"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('add-channel').click();
    const picker = page.getByTestId('server-picker');
    await picker.getByTestId(`guild-${GUILD}`).click();
    await picker.getByTestId('picker-next').click();
    await picker.getByTestId('channel-list').waitFor();
    const rulesInPicker = picker.getByTestId('server-rules-note');
    await expect.poll(() => rulesInPicker.textContent()).toContain('Reminders may post only in #general.');
    await picker.getByTestId(`channel-${CH.events}`).click();
    await expect.poll(() => rulesInPicker.locator('[data-rule="allowed_channels"]').getAttribute('data-blocking')).toBe('true');
    expect(await rulesInPicker.textContent()).toContain('not in this channel');
    // The save would be refused: Create waits for an allowed channel.
    expect(await picker.getByTestId('picker-create').isDisabled()).toBe(true);
    await screenshot(page, 'picker-server-rules', { fullPage: false });
    await picker.getByTestId(`channel-${CH.general}`).click();
    await expect.poll(() => picker.getByTestId('picker-create').isDisabled()).toBe(false);
  });

  it("a manager's list loads the reminders past its first page with next_cursor, the filters kept", async () => {
    const { page } = await e2e.signedInPage({ user: owner });
    // A server with more than 100 reminders, played by the network: the first page says more remain.
    await page.route(`**/api/servers/${GUILD}/reminders?limit=100`, async (route) => {
      const real = await route.fetch();
      const body = await real.json();
      await route.fulfill({ response: real, json: { ...body, next_cursor: 'older' } });
    });
    let asked = '';
    await page.route(`**/api/servers/${GUILD}/reminders?limit=100&before=*`, async (route) => {
      asked = new URL(route.request().url()).searchParams.get('before') ?? '';
      const first = (await owner.api.get(`/api/servers/${GUILD}/reminders?limit=1`)).body.reminders[0];
      await route.fulfill({ json: { reminders: [{ ...first, id: 'older-one', message: 'An older reminder', status: 'active', is_paused: false }], next_cursor: null } });
    });
    await page.goto(e2e.url(`/servers/${GUILD}`));
    await page.getByTestId('server-reminder').filter({ hasText: 'Member standup' }).waitFor();
    await page.locator('#filter-status').selectOption('active');
    await page.getByTestId('server-reminders-empty').waitFor();
    await page.getByTestId('server-reminders-more').click();
    await page.getByTestId('server-reminder').filter({ hasText: 'An older reminder' }).waitFor();
    expect(asked).toBe('older');
    expect(await page.locator('#filter-status').inputValue()).toBe('active');
    expect(await page.getByTestId('server-reminder').count()).toBe(1);
    expect(await page.getByTestId('server-reminders-more').count()).toBe(0);
  });
});
