/**
 * Destinations editor and server-picker dialog in a real browser, against the fake Discord:
 * DM/channel enablement by Discord identity, the DM cap, the full guild -> channel -> role path,
 * Back behaviour, the bot-not-in-server notice and invite, and what gets saved.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../helpers/fake-discord/index.ts';
import { linkDiscordAccount, MOBILE, openWizardDestinations, screenshot as rawScreenshot, useE2E } from './helpers.ts';

const PUBLIC_URL = 'http://localhost:5173';
const DISCORD_USER = '100000000000000001';
const DISCORD_USER_2 = '100000000000000002';
const DISCORD_USER_3 = '100000000000000003';
/** The only member of the forum server, so the other tests' server lists stay as they are. */
const DISCORD_USER_4 = '100000000000000004';
/** The demo user's twin, for the second test that saves channels (one Chime account per Discord user). */
const DISCORD_USER_5 = '100000000000000005';
const DEMO_GUILD = '1187000000000001000';
const SIDE_GUILD = '1187000000000002000';
const ART_GUILD = '1187000000000003000';
const FORUM_GUILD = '1187000000000004000';
const FORUM = {
  general: '1187000000000004101',
  plans: '1187000000000004102',
  ideas: '1187000000000004103',
  roadmap: '1187000000000004104',
  archived: '1187000000000004105',
  tag: '1187000000000004201',
};
const CH = { category: '1187000000000001100', general: '1187000000000001101', reminders: '1187000000000001102', voice: '1187000000000001104', news: '1187000000000001105' };
const ROLE = { team: '1187000000000001201', plain: '1187000000000001202', admins: '1187000000000001203', bot: '1187000000000001204', heralds: '1187000000000001205' };
const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-03-10`;
/** 1x1 PNG served for the CDN icon of the "Art Club" guild (the sandbox has no internet). */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  if (options.fullPage !== false) await page.evaluate(() => window.scrollTo(0, 0));
  return rawScreenshot(page, name, options);
}

let fake: FakeDiscord;
const env: Record<string, string> = {};

// Registered before useE2E's hook, so the server starts with the fake's settings.
beforeAll(async () => {
  fake = await startFakeDiscord({ botUsername: 'Chime' });
  Object.assign(env, {
    DISCORD_TOKEN: fake.botToken,
    DISCORD_CLIENT_ID: fake.clientId,
    DISCORD_CLIENT_SECRET: fake.clientSecret,
    DISCORD_API_URL: fake.apiUrl,
    PUBLIC_URL,
  });
  fake.addUser({ id: DISCORD_USER, username: 'demo', global_name: 'Demo User', email: 'demo@discord.example' });
  fake.addUser({ id: DISCORD_USER_2, username: 'alex', global_name: 'Alex', email: 'alex@discord.example' });
  fake.addUser({ id: DISCORD_USER_3, username: 'sam', global_name: 'Sam', email: 'sam@discord.example' });
  fake.addUser({ id: DISCORD_USER_5, username: 'kim', global_name: 'Kim', email: 'kim@discord.example' });
  fake.addGuild({
    id: DEMO_GUILD,
    name: 'Demo Server',
    ownerId: '100000000000000009',
    channels: [
      { id: CH.category, name: 'Text Channels', type: 4 },
      { id: CH.general, name: 'general', type: 0, parent_id: CH.category },
      { id: CH.reminders, name: 'reminders', type: 0, parent_id: CH.category },
      { id: CH.news, name: 'news', type: 5, parent_id: CH.category },
      { id: CH.voice, name: 'Lounge', type: 2 },
    ],
    roles: [
      { id: ROLE.team, name: 'Team', color: 0x2ecc71, mentionable: true },
      { id: ROLE.plain, name: 'Plain', color: 0, mentionable: true },
      { id: ROLE.admins, name: 'Admins', color: 0xe74c3c, mentionable: true },
      { id: ROLE.bot, name: 'Chime', managed: true, permissions: 0x400n | 0x800n | 0x4000n | 0x10000n },
      // Mention Everyone: the demo user and the bot may ping @everyone (and roles that are not mentionable).
      { id: ROLE.heralds, name: 'Heralds', color: 0, mentionable: false, permissions: PermissionFlags.MentionEveryone },
    ],
    members: [
      ...[DISCORD_USER, DISCORD_USER_5].map((userId) => ({ userId, roles: [ROLE.team, ROLE.heralds] })),
      ...[DISCORD_USER_2, DISCORD_USER_3].map((userId) => ({ userId, roles: [ROLE.team] })),
    ],
    botMember: true,
    botRoles: [ROLE.heralds],
  });
  fake.addGuild({ id: SIDE_GUILD, name: 'Side Project', ownerId: DISCORD_USER, channels: [{ id: '1187000000000002101', name: 'general', type: 0 }], members: [DISCORD_USER, DISCORD_USER_2, DISCORD_USER_3].map((userId) => ({ userId })), botMember: false });
  fake.addUser({ id: DISCORD_USER_4, username: 'robin', global_name: 'Robin', email: 'robin@discord.example' });
  fake.addGuild({
    id: FORUM_GUILD,
    name: 'Forum Folk',
    ownerId: DISCORD_USER_4,
    channels: [
      { id: FORUM.general, name: 'general', type: 0, position: 0 },
      { id: FORUM.ideas, name: 'ideas', type: 15, position: 1, flags: 1 << 4, available_tags: [{ id: FORUM.tag, name: 'proposal' }] },
      { id: FORUM.plans, name: 'plans', type: 11, parent_id: FORUM.general },
      { id: FORUM.roadmap, name: 'Roadmap', type: 11, parent_id: FORUM.ideas, applied_tags: [FORUM.tag] },
      { id: FORUM.archived, name: 'old-plans', type: 11, parent_id: FORUM.general, thread_metadata: { archived: true } },
    ],
    members: [{ userId: DISCORD_USER_4 }],
  });
  fake.addGuild({ id: ART_GUILD, name: 'Art Club', icon: 'a1b2c3d4e5f6', ownerId: DISCORD_USER, channels: [{ id: '1187000000000003101', name: 'gallery', type: 0 }], members: [DISCORD_USER, DISCORD_USER_2, DISCORD_USER_3, DISCORD_USER_5].map((userId) => ({ userId })) });
});

afterAll(async () => {
  await fake?.close();
});

describe('destinations editor and server picker (browser, fake Discord)', () => {
  const e2e = useE2E({ env });

  async function linkDiscord(user: Awaited<ReturnType<typeof e2e.signUp>>, discordId = DISCORD_USER) {
    await linkDiscordAccount(e2e.server.url, fake, user, discordId);
    const caps = await user.api.get('/api/account/capabilities');
    expect(caps.body).toMatchObject({ hasDiscordIdentity: true, discordConfigured: true });
  }

  const toDestinations = (page: Page) => openWizardDestinations(page, e2e.server.url, FUTURE_DATE);

  /** Serves guild icons locally and records window.open calls instead of opening tabs. */
  async function preparePage(page: Page) {
    await page.route('https://cdn.discordapp.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
    await page.addInitScript(() => {
      const opened: unknown[][] = [];
      (window as unknown as { __opened: unknown[][] }).__opened = opened;
      window.open = (...args: unknown[]) => {
        opened.push(args);
        return null;
      };
    });
  }

  const picker = (page: Page) => page.getByTestId('server-picker');
  const mode = (page: Page) => picker(page).getAttribute('data-mode');

  it('without a Discord identity: DM and channel are disabled with a hint that connects Discord', async () => {
    const { page } = await e2e.signedInPage();
    await toDestinations(page);
    await page.getByTestId('dm-hint').waitFor();
    expect(await page.getByTestId('add-dm').isDisabled()).toBe(true);
    expect(await page.getByTestId('add-channel').isDisabled()).toBe(true);
    // In the wizard the hint connects Discord and comes back to the draft (tests/browser/callback.test.ts).
    expect(await page.getByTestId('dm-hint').getByRole('button', { name: 'Connect your Discord account first' }).count()).toBe(1);
    expect(await page.getByTestId('channel-hint').textContent()).toBe('Connect your Discord account first');
    // Webhooks do not need Discord.
    expect(await page.getByTestId('toggle-webhook').isDisabled()).toBe(false);
    await screenshot(page, 'destinations-no-discord-light');
  });

  /** A signed-in account with Discord linked, ready for the wizard. */
  async function destinationsWithDiscord(discordId = DISCORD_USER) {
    const user = await e2e.signUp();
    await linkDiscord(user, discordId);
    const { page } = await e2e.signedInPage({ user });
    await preparePage(page);
    return { user, page };
  }

  /** Goes on to the review, creates the reminder, and answers the destinations it was saved with. */
  async function createAndReadDestinations(page: Page, user: Awaited<ReturnType<typeof e2e.signUp>>, count: number) {
    await page.getByTestId('wizard-next').click();
    expect(await page.getByTestId('review-destination').count()).toBe(count);
    await page.getByTestId('wizard-create').click();
    await page.waitForURL(e2e.url('/home'));
    const list = await user.api.get('/api/reminders');
    expect(list.body).toHaveLength(1);
    return list.body[0].destinations.map((d: { type: string; metadata: unknown }) => ({ type: d.type, metadata: d.metadata }));
  }

  it('with Discord: DM (then Limit reached), the picker path guild -> channel -> role -> Create, Back, bot invite; saved as chosen', async () => {
    const { user, page } = await destinationsWithDiscord();
    // The server offers @everyone (the demo user and the bot may mention everyone) and drops managed
    // roles; add a managed role and a role merely named "@everyone" to prove the dialog filters too.
    await page.route('**/api/discord/guilds/roles', async (route) => {
      const response = await route.fetch();
      const roles = (await response.json()) as unknown[];
      await route.fulfill({
        response,
        json: [...roles, { id: '1187000000000001299', name: '@everyone', color: 0, managed: false }, { id: ROLE.bot, name: 'Chime', color: 0, managed: true }],
      });
    });
    await toDestinations(page);

    // DM: one at most.
    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-dm"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('add-dm').click();
    expect(await page.getByTestId('destination-item').count()).toBe(1);
    expect(await page.getByTestId('destination-item').first().textContent()).toContain('Discord direct message to @demo');
    expect(await page.getByTestId('add-dm').isDisabled()).toBe(true);
    expect(await page.getByTestId('dm-hint').textContent()).toBe('Limit reached');

    // Step 1: servers, loaded when the dialog opens, icon from the CDN or initials.
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId('guild-list').waitFor();
    expect(await mode(page)).toBe('guild');
    expect(await picker(page).getByTestId('picker-step').textContent()).toBe('Step 1 of 3');
    expect(await picker(page).getByRole('radio').allTextContents()).toEqual(['Art Club', 'DSDemo Server', 'SPSide ProjectBot not added']);
    await picker(page).getByTestId(`guild-${ART_GUILD}`).getByTestId('guild-icon').waitFor();
    const iconSrc = await picker(page).getByTestId(`guild-${ART_GUILD}`).getByTestId('guild-icon').getAttribute('src');
    expect(iconSrc).toBe(`https://cdn.discordapp.com/icons/${ART_GUILD}/a1b2c3d4e5f6.png`);
    expect(await picker(page).getByTestId(`guild-${DEMO_GUILD}`).getByTestId('guild-initials').textContent()).toBe('DS');
    const next = picker(page).getByTestId('picker-next');
    expect(await next.isDisabled()).toBe(true);

    // A server without the bot: notice with an invite button (new tab, noopener); Next stays disabled.
    await picker(page).getByTestId(`guild-${SIDE_GUILD}`).click();
    await picker(page).getByTestId('bot-missing').waitFor();
    expect(await next.isDisabled()).toBe(true);
    await screenshot(page, 'picker-bot-missing-light', { fullPage: false });
    await picker(page).getByTestId('invite-bot').click();
    await page.waitForFunction(() => (window as unknown as { __opened: unknown[] }).__opened.length === 1);
    const [openedUrl, target, features] = (await page.evaluate(() => (window as unknown as { __opened: string[][] }).__opened[0])) as string[];
    expect(target).toBe('_blank');
    expect(features).toContain('noopener');
    const invite = new URL(openedUrl!);
    expect(invite.searchParams.get('guild_id')).toBe(SIDE_GUILD);
    expect(invite.searchParams.get('client_id')).toBe(fake.clientId);
    expect(invite.searchParams.get('scope')).toContain('bot');
    expect(BigInt(invite.searchParams.get('permissions')!) & 2147483648n).toBe(2147483648n);

    // Step 2: the channels a reminder can post in (no category), each kind but text named.
    await picker(page).getByTestId(`guild-${DEMO_GUILD}`).click();
    expect(await picker(page).getByTestId('bot-missing').count()).toBe(0);
    await screenshot(page, 'picker-guild-light', { fullPage: false });
    await next.click();
    await picker(page).getByTestId('channel-list').waitFor();
    expect(await mode(page)).toBe('channel');
    expect(await picker(page).getByTestId('channel-list').getByRole('radio').allTextContents()).toEqual(['LoungeVoice channel chat', 'general', 'reminders', 'newsAnnouncement channel']);
    expect(await picker(page).getByTestId('picker-publish').count()).toBe(0);
    expect(await picker(page).getByTestId('picker-create').isDisabled()).toBe(true);
    expect(await picker(page).getByTestId('picker-add-role').isDisabled()).toBe(true);
    await picker(page).getByTestId(`channel-${CH.reminders}`).click();
    expect(await picker(page).getByTestId(`channel-${CH.reminders}`).getAttribute('aria-checked')).toBe('true');

    // Back from channel: to the server list, channel selection and lists cleared.
    await picker(page).getByTestId('picker-back').click();
    expect(await mode(page)).toBe('guild');
    expect(await picker(page).getByTestId(`guild-${DEMO_GUILD}`).getAttribute('aria-checked')).toBe('true');
    await next.click();
    await picker(page).getByTestId('channel-list').waitFor();
    expect(await picker(page).locator('[role="radio"][aria-checked="true"]').count()).toBe(0);
    await picker(page).getByTestId(`channel-${CH.general}`).click();
    await screenshot(page, 'picker-channel-light', { fullPage: false });

    // Step 3: @everyone first, then roles with colour dots (grey for 0), no managed role.
    await picker(page).getByTestId('picker-add-role').click();
    await picker(page).getByTestId('role-list').waitFor();
    expect(await mode(page)).toBe('role');
    const roleNames = await picker(page).getByTestId('role-list').getByRole('radio').allTextContents();
    expect(roleNames[0]).toBe('@everyone');
    expect(roleNames.slice(1).sort()).toEqual(['@Admins', '@Heralds', '@Plain', '@Team']);
    expect(await picker(page).getByTestId(`role-${ROLE.team}`).getByTestId('role-color').getAttribute('data-color')).toBe('#2ecc71');
    expect(await picker(page).getByTestId(`role-${ROLE.plain}`).getByTestId('role-color').getAttribute('data-color')).toBe('none');
    const teamDot = await picker(page)
      .getByTestId(`role-${ROLE.team}`)
      .getByTestId('role-color')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(teamDot).toBe('rgb(46, 204, 113)');
    expect(await picker(page).getByTestId('picker-create').isDisabled()).toBe(true);
    await picker(page).getByTestId(`role-${ROLE.admins}`).click();

    // Back from role: to channels, the channel kept, the role cleared.
    await picker(page).getByTestId('picker-back').click();
    expect(await mode(page)).toBe('channel');
    expect(await picker(page).getByTestId(`channel-${CH.general}`).getAttribute('aria-checked')).toBe('true');
    await picker(page).getByTestId('picker-add-role').click();
    await picker(page).getByTestId('role-list').waitFor();
    expect(await picker(page).locator('[role="radio"][aria-checked="true"]').count()).toBe(0);
    await picker(page).getByTestId(`role-${DEMO_GUILD}`).click();
    await screenshot(page, 'picker-role-light', { fullPage: false });
    await picker(page).getByTestId('picker-create').click();
    await picker(page).waitFor({ state: 'detached' });
    const titles = await page.getByTestId('destination-title').allTextContents();
    expect(titles).toContain('#general in Demo Server (@everyone)');

    // Reopening starts over at the server step, nothing chosen.
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId('guild-list').waitFor();
    expect(await mode(page)).toBe('guild');
    expect(await picker(page).locator('[role="radio"][aria-checked="true"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await picker(page).waitFor({ state: 'detached' });

    const saved = await createAndReadDestinations(page, user, 2);
    expect(saved).toEqual(
      expect.arrayContaining([
        { type: 'discord_dm', metadata: {} },
        {
          type: 'discord_channel',
          metadata: {
            guild_id: DEMO_GUILD,
            channel_id: CH.general,
            mention_role_id: DEMO_GUILD,
            guild_name: 'Demo Server',
            channel_name: 'general',
            channel_type: 0,
            mention_role_name: '@everyone',
          },
        },
      ]),
    );
  });

  it('a channel without a mention (Skip role), an announcement channel published, and a server the bot left; saved as chosen', async () => {
    const { user, page } = await destinationsWithDiscord(DISCORD_USER_5);
    await toDestinations(page);
    const next = picker(page).getByTestId('picker-next');
    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-channel"]') as HTMLButtonElement | null)?.disabled);
    // Skip role adds a channel without a mention.
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId('guild-list').waitFor();
    expect(await mode(page)).toBe('guild');
    expect(await picker(page).locator('[role="radio"][aria-checked="true"]').count()).toBe(0);
    await picker(page).getByTestId(`guild-${DEMO_GUILD}`).click();
    await next.click();
    await picker(page).getByTestId(`channel-${CH.reminders}`).click();
    await picker(page).getByTestId('picker-add-role').click();
    await picker(page).getByTestId('role-list').waitFor();
    await picker(page).getByTestId('picker-skip-role').click();
    await picker(page).waitFor({ state: 'detached' });
    expect(await page.getByTestId('destination-title').allTextContents()).toContain('#reminders in Demo Server');

    // An announcement channel offers to publish to the servers following it (unticked each time).
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId(`guild-${DEMO_GUILD}`).click();
    await next.click();
    await picker(page).getByTestId(`channel-${CH.news}`).click();
    const publish = picker(page).getByTestId('picker-publish');
    expect(await publish.getByRole('checkbox', { name: 'Publish to following servers' }).getAttribute('aria-checked')).toBe('false');
    await publish.getByRole('checkbox').click();
    await screenshot(page, 'picker-publish-light', { fullPage: false });
    await picker(page).getByTestId('picker-create').click();
    await picker(page).waitFor({ state: 'detached' });
    expect(await page.getByTestId('destination-title').allTextContents()).toContain('#news in Demo Server · published to following servers');
    await screenshot(page, 'destinations-with-discord-light');

    // A channel call answering "Bot is not a member of this guild" also shows the notice.
    await page.route('**/api/discord/guilds/channels', (route) =>
      route.fulfill({ status: 400, json: { error: 'Bot is not a member of this guild', code: 'DISCORD_BOT_NOT_IN_GUILD' } }),
    );
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId(`guild-${ART_GUILD}`).click();
    await next.click();
    await picker(page).getByTestId('bot-missing').waitFor();
    expect(await mode(page)).toBe('guild');
    await page.keyboard.press('Escape');
    await picker(page).waitFor({ state: 'detached' });
    await page.unroute('**/api/discord/guilds/channels');

    const saved = await createAndReadDestinations(page, user, 2);
    expect(saved).toEqual(
      expect.arrayContaining([
        { type: 'discord_channel', metadata: { guild_id: DEMO_GUILD, channel_id: CH.reminders, guild_name: 'Demo Server', channel_name: 'reminders', channel_type: 0 } },
        { type: 'discord_channel', metadata: { guild_id: DEMO_GUILD, channel_id: CH.news, publish: true, guild_name: 'Demo Server', channel_name: 'news', channel_type: 5 } },
      ]),
    );
  });

  it('the picker in dark mode, keyboard choice, and a failed guild load', async () => {
    const user = await e2e.signUp();
    await linkDiscord(user, DISCORD_USER_2);
    const { page } = await e2e.signedInPage({ user, colorScheme: 'dark', storage: { 'vite-ui-theme': 'dark' } });
    await preparePage(page);
    await toDestinations(page);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-channel"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('add-dm').click();
    await screenshot(page, 'destinations-dark');
    await page.getByTestId('add-channel').click();
    // Keyboard: the list is one tab stop; arrow keys move and choose.
    await picker(page).getByTestId(`guild-${ART_GUILD}`).focus();
    expect(await picker(page).getByTestId(`guild-${ART_GUILD}`).getAttribute('tabindex')).toBe('0');
    expect(await picker(page).getByTestId(`guild-${DEMO_GUILD}`).getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('ArrowDown');
    expect(await picker(page).getByTestId(`guild-${DEMO_GUILD}`).getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(`guild-${DEMO_GUILD}`);
    await screenshot(page, 'picker-guild-dark', { fullPage: false });
    await picker(page).getByTestId('picker-next').click();
    await picker(page).getByTestId(`channel-${CH.general}`).click();
    await picker(page).getByTestId('picker-add-role').click();
    await picker(page).getByTestId(`role-${ROLE.team}`).click();
    await screenshot(page, 'picker-role-dark', { fullPage: false });
    await page.keyboard.press('Escape');

    fake.failNext({ pathPattern: /users\/@me\/guilds/, status: 500, body: { message: '500: Internal Server Error', code: 0 } });
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId('picker-error').waitFor();
    expect((await picker(page).getByTestId('picker-error').textContent())?.length).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
  });

  it('threads under their channel (archived ones on demand), and a forum whose required tag is chosen before Create', async () => {
    const user = await e2e.signUp();
    await linkDiscord(user, DISCORD_USER_4);
    const { page } = await e2e.signedInPage({ user });
    await preparePage(page);
    await toDestinations(page);
    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-channel"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId(`guild-${FORUM_GUILD}`).click();
    await picker(page).getByTestId('picker-next').click();
    await picker(page).getByTestId('channel-list').waitFor();
    expect(await picker(page).getByTestId('channel-list').getByRole('radio').allTextContents()).toEqual([
      'general',
      'plansThread',
      'ideasForum: a new post each time',
      'RoadmapThread',
    ]);
    expect(await picker(page).getByTestId(`channel-${FORUM.plans}`).getByTestId('thread-indent').count()).toBe(1);
    // Archived threads come on demand, after the channel's active ones.
    await picker(page).getByTestId(`channel-${FORUM.general}`).click();
    await picker(page).getByTestId('picker-show-archived').click();
    await picker(page).getByTestId(`channel-${FORUM.archived}`).waitFor();
    expect((await picker(page).getByTestId('channel-list').getByRole('radio').allTextContents()).slice(0, 3)).toEqual([
      'general',
      'plansThread',
      'old-plansThread, archived: reopened for each reminder',
    ]);
    expect(await picker(page).getByTestId('picker-show-archived').count()).toBe(0);
    await picker(page).getByTestId(`channel-${FORUM.ideas}`).click();
    const tags = picker(page).getByTestId('picker-forum-tags');
    expect(await tags.textContent()).toContain('This forum requires at least one tag on each post');
    expect(await picker(page).getByTestId('picker-create').isDisabled()).toBe(true);
    await tags.getByRole('checkbox', { name: 'proposal' }).click();
    expect(await picker(page).getByTestId('picker-create').isDisabled()).toBe(false);
    await picker(page).getByTestId('picker-create').click();
    await picker(page).waitFor({ state: 'detached' });
    expect(await page.getByTestId('destination-title').allTextContents()).toContain('#ideas in Forum Folk · Forum: a new post each time');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('wizard-create').click();
    await page.waitForURL(e2e.url('/home'));
    const list = await user.api.get('/api/reminders');
    expect(list.body[0].destinations[0].metadata).toEqual({
      guild_id: FORUM_GUILD,
      channel_id: FORUM.ideas,
      forum_tag_ids: [FORUM.tag],
      guild_name: 'Forum Folk',
      channel_name: 'ideas',
      channel_type: 15,
    });
  });

  it('the editor and the picker on a 390 px screen', async () => {
    const user = await e2e.signUp();
    await linkDiscord(user, DISCORD_USER_3);
    const mobile = (await e2e.signedInPage({ user, viewport: MOBILE })).page;
    await preparePage(mobile);
    await toDestinations(mobile);
    await mobile.waitForFunction(() => !(document.querySelector('[data-testid="add-channel"]') as HTMLButtonElement | null)?.disabled);
    await screenshot(mobile, 'destinations-mobile');
    await mobile.getByTestId('add-channel').click();
    await picker(mobile).getByTestId(`guild-${SIDE_GUILD}`).click();
    await picker(mobile).getByTestId('bot-missing').waitFor();
    await screenshot(mobile, 'picker-bot-missing-mobile', { fullPage: false });
    await picker(mobile).getByTestId(`guild-${DEMO_GUILD}`).click();
    await picker(mobile).getByTestId('picker-next').click();
    await picker(mobile).getByTestId(`channel-${CH.general}`).click();
    await screenshot(mobile, 'picker-channel-mobile', { fullPage: false });
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
  });
});
