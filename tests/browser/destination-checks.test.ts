/**
 * Destination checks in the wizard (issue 10), in a real browser against the fake Discord and a
 * server that refuses private webhook targets (WEBHOOK_ALLOW_PRIVATE_TARGETS=false, production's
 * default): the picker shows channels where the bot cannot post disabled with the reason, a
 * destination is checked when it is added and a failed check holds the wizard, and a Create
 * refused because of one destination names it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, PermissionFlags, startFakeDiscord } from '../helpers/fake-discord/index.ts';
import { linkDiscordAccount, openWizardDestinations, screenshot, useE2E } from './helpers.ts';

const DISCORD_USER = '100000000000000001';
const GUILD = '1187000000000001000';
const CH = { general: '1187000000000001101', announcements: '1187000000000001102' };
const ROLE = { team: '1187000000000001201', bot: '1187000000000001204' };
const FUTURE_DATE = `${new Date().getUTCFullYear() + 2}-03-10`;

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
    PUBLIC_URL: 'http://localhost:5173',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
  });
  fake.addUser({ id: DISCORD_USER, username: 'demo', global_name: 'Demo User', email: 'demo@discord.example' });
  fake.addGuild({
    id: GUILD,
    name: 'Demo Server',
    ownerId: '100000000000000009',
    channels: [
      { id: CH.general, name: 'general', type: 0 },
      // Everyone may post, except the bot (a member overwrite on the bot's user).
      { id: CH.announcements, name: 'announcements', type: 0, permission_overwrites: [{ id: fake.clientId, type: 1, deny: PermissionFlags.SendMessages }] },
    ],
    roles: [
      { id: ROLE.team, name: 'Team', color: 0x2ecc71, mentionable: true },
      // No Mention Everyone: the bot cannot ping roles that are not mentionable.
      { id: ROLE.bot, name: 'Chime', managed: true, permissions: PermissionFlags.ViewChannel | PermissionFlags.SendMessages },
    ],
    members: [{ userId: DISCORD_USER, roles: [ROLE.team] }],
    botMember: true,
  });
});

afterAll(async () => {
  await fake?.close();
});

describe('destination checks (browser, fake Discord, private targets refused)', () => {
  const e2e = useE2E({ env });

  const linkDiscord = (user: { token: string }) => linkDiscordAccount(e2e.server.url, fake, user, DISCORD_USER);
  const toDestinations = (page: Page) => openWizardDestinations(page, e2e.server.url, FUTURE_DATE);

  async function addWebhook(page: Page, url: string) {
    if ((await page.getByTestId('webhook-panel').count()) === 0) await page.getByTestId('toggle-webhook').click();
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-add').click();
  }

  const picker = (page: Page) => page.getByTestId('server-picker');

  it('checks a webhook before it is added: a forbidden address stays out of the list with its reason, and Next goes on', async () => {
    const { page } = await e2e.signedInPage();
    await toDestinations(page);

    // A slow network: the checks of the first address answer only once the next one is typed.
    let answerFirstCheck!: () => void;
    const firstCheckHeld = new Promise<void>((resolve) => (answerFirstCheck = resolve));
    await page.route('**/api/destinations/check', async (route) => {
      if (route.request().postData()?.includes('hooks.example.com/ok')) await firstCheckHeld;
      await route.continue();
    });
    await addWebhook(page, 'https://hooks.example.com/ok');
    // Leaving the URL field checks it already, before Add.
    await page.getByTestId('webhook-url').fill('http://127.0.0.1:9/hook');
    await page.getByTestId('webhook-url').blur();
    answerFirstCheck();
    await page.getByTestId('destination-item').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="webhook-url-check"]')?.getAttribute('data-status') === 'failed');
    // The first address went to the list; the one typed meanwhile stayed in the field.
    expect(await page.getByTestId('webhook-url').inputValue()).toBe('http://127.0.0.1:9/hook');
    expect(await page.getByTestId('webhook-url-check').textContent()).toBe('This webhook address is not allowed: it points to a private or local network.');
    await page.getByTestId('webhook-add').click();
    // Add asks the server again and refuses: the reason stays under the field, the list keeps the
    // good webhook only, and nothing holds the wizard.
    await page.getByTestId('webhook-url-check').waitFor();
    expect(await page.getByTestId('destination-item').count()).toBe(1);
    expect(await page.getByTestId('destination-count').textContent()).toBe('1');
    expect(await page.getByText('This webhook address is not allowed', { exact: false }).count()).toBe(1);
    await screenshot(page, 'wizard-destination-check-failed');
    expect(await page.getByTestId('wizard-next').isDisabled()).toBe(false);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('review-step').waitFor();
  });

  it('the picker shows a channel where the bot cannot post disabled with the reason, warns about role pings, and the added channel is checked', async () => {
    const user = await e2e.signUp();
    await linkDiscord(user);
    const { page } = await e2e.signedInPage({ user });
    await toDestinations(page);

    await page.waitForFunction(() => !(document.querySelector('[data-testid="add-channel"]') as HTMLButtonElement | null)?.disabled);
    await page.getByTestId('add-channel').click();
    await picker(page).getByTestId(`guild-${GUILD}`).click();
    await picker(page).getByTestId('picker-next').click();
    await picker(page).getByTestId('channel-list').waitFor();

    const blocked = picker(page).getByTestId(`channel-${CH.announcements}`);
    expect(await blocked.isDisabled()).toBe(true);
    expect(await blocked.getByTestId('channel-unusable-reason').textContent()).toBe(
      "The bot can't send messages in #announcements. Give it the View Channel and Send Messages permissions there.",
    );
    expect(await picker(page).getByTestId(`channel-${CH.general}`).isDisabled()).toBe(false);
    await screenshot(page, 'picker-channel-unusable', { fullPage: false });

    // The bot has no Mention Everyone: choosing a role warns that non-mentionable roles are not pinged there.
    await picker(page).getByTestId(`channel-${CH.general}`).click();
    await picker(page).getByTestId('picker-add-role').click();
    await picker(page).getByTestId('role-list').waitFor();
    expect(await picker(page).getByTestId('picker-mention-warning').textContent()).toContain('cannot ping roles that are not mentionable in #general');
    await picker(page).getByTestId(`role-${ROLE.team}`).click();
    await picker(page).getByTestId('picker-create').click();

    const check = page.getByTestId('destination-item').first().getByTestId('destination-check');
    await page.waitForFunction(() => document.querySelector('[data-testid="destination-check"]')?.getAttribute('data-status') === 'ok');
    expect(await check.textContent()).toBe('Ready');

    // The bot loses the permission before Create: the server's refusal names the destination, in words.
    fake.updateChannel(CH.general, { permission_overwrites: [{ id: fake.clientId, type: 1, deny: PermissionFlags.SendMessages }] });
    try {
      await page.getByTestId('wizard-next').click();
      await page.getByTestId('review-step').waitFor();
      await page.getByTestId('wizard-create').click();
      const error = page.getByTestId('create-error');
      await error.waitFor();
      expect(await error.textContent()).toBe("#general: The bot can't send messages in #general. Give it the View Channel and Send Messages permissions there.");
    } finally {
      fake.updateChannel(CH.general, { permission_overwrites: [] });
    }
  });
});
