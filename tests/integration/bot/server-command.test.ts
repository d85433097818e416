// Runs on SQLite only: the commands and buttons call the servers service, which servers-api.test.ts runs on both databases (vitest.config.ts).
/**
 * `/server reminders` and `/server settings` (issue 28) against the fake Discord: a manager pages
 * through the server's reminders and pauses, resumes and removes them (after a confirmation) with
 * the buttons, and takes one over (after a confirmation), through the servers service, so the
 * audit log names the Discord user; a member is
 * refused as the API refuses them; in a DM the command says where to use it; French.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, command, EPHEMERAL, interact } from '../../helpers/bot-harness.ts';
import { CH, channelReminder, DEFAULT_SERVER_SETTINGS, type Fixture, G_MAIN, G_NOBOT, linkedAccount, ROLE, startServersFixture, USER, webhook } from '../../helpers/servers-fixture.ts';

let f: Fixture;
type Account = Awaited<ReturnType<typeof linkedAccount>>;
let owner: Account;
let member: Account;
/** Newest first, as the list shows them. */
const made: Array<{ id: string; message: string }> = [];

beforeAll(async () => {
  f = await startServersFixture();
  await f.server.app.bot!.whenReady();
  await f.fake.waitFor(() => f.server.app.bot!.client.guilds.cache.has(G_MAIN), 3000, 'guild cache');
  owner = await linkedAccount(f, USER.owner);
  member = await linkedAccount(f, USER.member);
  const leaver = await linkedAccount(f, USER.leaver);
  const create = async (who: Account, body: ReturnType<typeof channelReminder>) => {
    const res = await who.api.post('/api/reminders', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made.unshift({ id: (res.body as { id: string }).id, message: body.message });
  };
  await create(leaver, channelReminder(CH.announcements, { message: 'Leaver news' }));
  // The first has a webhook too: removing it from the server leaves the creator's reminder alive.
  await create(member, channelReminder(CH.general, { message: 'Task 1', extra: [webhook] }));
  for (let i = 2; i <= 5; i++) await create(member, channelReminder(CH.general, { message: `Task ${i}` }));
  f.fake.removeMember(G_MAIN, USER.leaver);
  f.server.app.discord!.invalidateCache();
});

afterAll(async () => {
  await f?.close();
});

const server = (userId: string, sub: 'reminders' | 'settings', locale?: string) =>
  command(f.fake, { userId, name: 'server', guildId: G_MAIN, channelId: CH.general, options: [{ name: sub, options: [] }], ...(locale ? { locale } : {}) });

const press = (userId: string, customId: string, messageId: string, locale?: string) =>
  interact(f.fake, f.fake.buttonPress({ userId, customId, messageId, guildId: G_MAIN, channelId: CH.general, ...(locale ? { locale } : {}) }));

const buttons = (data: any): Array<[string, string, boolean]> =>
  (data.components as any[]).flatMap((row) => row.components.map((b: any) => [b.custom_id ?? b.url, b.label, !!b.disabled]));

const serverPaused = async (reminderId: string) =>
  (await f.server.app.db.selectFrom('destinations').select('server_paused_at').where('reminder_id', '=', reminderId).where('type', '=', 'discord_channel').executeTakeFirstOrThrow()).server_paused_at;

async function audit() {
  const res = await owner.api.get(`/api/servers/${G_MAIN}/audit?limit=100`);
  expect(res.status).toBe(200);
  return (res.body as { entries: Array<{ action: string; reminder_id: string | null; actor: { discord_user_id: string } }> }).entries;
}

describe('/server reminders', () => {
  it('is registered with its subcommands, localized, without default_member_permissions', () => {
    const cmd = f.fake.registeredCommands().find((c) => c.name === 'server') as any;
    expect(cmd.name_localizations).toMatchObject({ fr: 'serveur', 'es-ES': 'servidor', 'es-419': 'servidor' });
    expect(cmd.options.map((o: any) => [o.name, o.name_localizations.fr, o.name_localizations['es-ES']])).toEqual([
      ['reminders', 'rappels', 'recordatorios'],
      ['settings', 'règles', 'reglas'],
    ]);
    expect(cmd.default_member_permissions ?? null).toBeNull();
  });

  it("lists every reminder of the server to a manager, four a page, with its channel, creator, next time and status", async () => {
    const first = await server(USER.owner, 'reminders');
    expect(first.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(first.data.allowed_mentions).toEqual({ parse: [] });
    expect(first.content).toContain('**Reminders posting in this server**');
    for (const r of made.slice(0, 4)) expect(first.content).toContain(`> ${r.message}`);
    expect(first.content).not.toContain('Task 1');
    expect(first.content).toMatch(new RegExp(`\\*\\*1\\.\\*\\* <t:\\d+:F> \\(<t:\\d+:R>\\) · Every day · active\\n> Task 5\\nin <#${CH.general}> · by member`));
    expect(buttons(first.data)).toEqual([
      ...made.slice(0, 4).flatMap((r, i) => [
        [`srv:pause:0:${r.id}`, `Pause ${i + 1}`, false],
        [`srv:ask:0:${r.id}`, `Remove ${i + 1}`, false],
        [`srv:askTake:0:${r.id}`, `Take over ${i + 1}`, false],
      ]),
      ['srv:page:-1', 'Previous', true],
      ['srv:page:1', 'Next', false],
    ]);

    const original = f.fake.interaction(first.id)!.original!;
    const second = await press(USER.owner, 'srv:page:1', original.id);
    expect(second.type).toBe(7);
    expect(second.data.content).toContain('> Task 1');
    // The leaver's reminder: the creator is no longer in the server.
    expect(second.data.content).toContain(`> Leaver news\nin <#${CH.announcements}> · by leaver (left the server)`);
    expect(second.data.content).toContain('**6.**');
    expect(buttons(second.data).slice(-2)).toEqual([
      ['srv:page:0', 'Previous', false],
      ['srv:page:2', 'Next', true],
    ]);
  });

  it('pauses and resumes the server part with the buttons, through the service: the audit names the Discord user', async () => {
    const target = made[0]!;
    const list = await server(USER.owner, 'reminders');
    const messageId = f.fake.interaction(list.id)!.original!.id;
    const paused = await press(USER.owner, `srv:pause:0:${target.id}`, messageId);
    expect(paused.type).toBe(7);
    expect(paused.data.content).toMatch(/^⏸ Paused in this server: Task 5\./);
    expect(paused.data.content).toContain('· Every day · ⏸ paused in this server\n> Task 5');
    expect(buttons(paused.data)[0]).toEqual([`srv:resume:0:${target.id}`, 'Resume 1', false]);
    expect(await serverPaused(target.id)).not.toBeNull();

    const resumed = await press(USER.owner, `srv:resume:0:${target.id}`, messageId);
    expect(resumed.data.content).toMatch(/^▶️ Resumed in this server: Task 5/);
    expect(await serverPaused(target.id)).toBeNull();

    const entries = (await audit()).filter((e) => e.reminder_id === target.id);
    expect(entries.map((e) => [e.action, e.actor.discord_user_id])).toEqual([
      ['resume', USER.owner],
      ['pause', USER.owner],
      ['create', USER.member],
    ]);
  });

  it('removes a reminder only after a confirmation that says what happens to its creator', async () => {
    const withWebhook = made.find((r) => r.message === 'Task 1')!;
    const list = await server(USER.owner, 'reminders');
    const messageId = f.fake.interaction(list.id)!.original!.id;
    const ask = await press(USER.owner, `srv:ask:1:${withWebhook.id}`, messageId);
    expect(ask.type).toBe(7);
    expect(ask.data.content).toBe(
      `Remove “Task 1” from this server?\nIt no longer posts in <#${CH.general}>. member keeps their other destinations; if it had none, it ends. They are told that a manager removed it.`,
    );
    expect(buttons(ask.data)).toEqual([
      [`srv:delete:1:${withWebhook.id}`, 'Remove', false],
      ['srv:page:1', 'Cancel', false],
    ]);
    // Nothing is removed until confirmed; Cancel goes back to the page.
    const back = await press(USER.owner, 'srv:page:1', messageId);
    expect(back.data.content).toContain('> Task 1');
    expect(await f.server.app.db.selectFrom('destinations').select('id').where('reminder_id', '=', withWebhook.id).execute()).toHaveLength(2);

    const removed = await press(USER.owner, `srv:delete:1:${withWebhook.id}`, messageId);
    expect(removed.data.content).toMatch(/^🗑️ Removed from this server: Task 1\n/);
    expect(removed.data.content).not.toContain('> Task 1');
    // The creator keeps the webhook; the reminder goes on for them, with a notice.
    const left = await f.server.app.db.selectFrom('destinations').select('type').where('reminder_id', '=', withWebhook.id).execute();
    expect(left.map((d) => d.type)).toEqual(['webhook']);
    const mine = await member.api.get(`/api/reminders/${withWebhook.id}`);
    expect(mine.body.server_notice).toContain('A manager of Main removed this reminder');

    // One without another destination ends.
    const only = made.find((r) => r.message === 'Task 2')!;
    const ended = await press(USER.owner, `srv:delete:0:${only.id}`, messageId);
    expect(ended.data.content).toMatch(/^🗑️ Removed from this server: Task 2\. It had no other destination, so it ended\./);
    expect((await f.server.app.db.selectFrom('reminders').select('next_fire_utc').where('id', '=', only.id).executeTakeFirstOrThrow()).next_fire_utc).toBeNull();

    // Four are left: one page. A Next pressed on an older message shows the last page there is.
    const stale = await press(USER.owner, 'srv:page:1', messageId);
    expect(stale.data.content).toContain('**1.**');
    expect(stale.data.content).toContain('**4.**');
    expect(buttons(stale.data).map(([id]) => id)).not.toContain('srv:page:0');

    const deletes = (await audit()).filter((e) => e.action === 'delete');
    expect(deletes.map((e) => [e.reminder_id, e.actor.discord_user_id])).toEqual([
      [only.id, USER.owner],
      [withWebhook.id, USER.owner],
    ]);
  });

  it("takes a reminder over after a confirmation that says what happens to its creator, through the dashboard's service call", async () => {
    const target = made.find((r) => r.message === 'Task 4')!;
    const list = await server(USER.owner, 'reminders');
    const messageId = f.fake.interaction(list.id)!.original!.id;
    const ask = await press(USER.owner, `srv:askTake:0:${target.id}`, messageId);
    expect(ask.type).toBe(7);
    expect(ask.data.content).toBe(
      `Take over “Task 4”?\nIts messages in <#${CH.general}> become your own reminder, with the same message and schedule, counted in your reminders. member keeps only their other destinations; if it had none, their reminder ends. They are told that a manager took it over.`,
    );
    expect(buttons(ask.data)).toEqual([
      [`srv:take:0:${target.id}`, 'Take over', false],
      ['srv:page:0', 'Cancel', false],
    ]);
    // Nothing changes until confirmed; a member's forged press is refused as the API refuses them.
    const forged = await press(USER.member, `srv:take:0:${target.id}`, messageId);
    expect(forged.data.content).toMatch(/^Only this server's managers can do this/);
    expect((await f.server.app.db.selectFrom('destinations').select('id').where('reminder_id', '=', target.id).execute()).length).toBe(1);

    const taken = await press(USER.owner, `srv:take:0:${target.id}`, messageId);
    expect(taken.data.content).toMatch(/^🤝 Taken over: Task 4\. It is now your reminder \(see \/reminders\)\.\n/);
    // The manager's own reminder now posts there: listed first (newest), by them, without a Take over button.
    expect(taken.data.content).toMatch(new RegExp(`\\*\\*1\\.\\*\\* .*\\n> Task 4\\nin <#${CH.general}> · by owner`));
    const mine = await owner.api.get('/api/reminders');
    const newOne = (mine.body as Array<{ id: string; message: string; destinations: Array<{ type: string; metadata: { channel_id: string } }> }>).find((r) => r.message === 'Task 4')!;
    expect(newOne.destinations.map((d) => [d.type, d.metadata.channel_id])).toEqual([['discord_channel', CH.general]]);
    expect(buttons(taken.data).filter(([id]) => id.endsWith(`:${newOne.id}`)).map(([id]) => id.split(':')[1])).toEqual(['pause', 'ask']);
    // The creator's reminder had no other destination: it ended, and says why.
    const theirs = await member.api.get(`/api/reminders/${target.id}`);
    expect(theirs.body.status).toBe('completed');
    expect(theirs.body.destinations).toEqual([]);
    expect(theirs.body.server_notice).toContain('A manager of Main (owner) took over');

    const entries = (await audit()).filter((e) => e.action === 'take_over');
    expect(entries.map((e) => [e.reminder_id, e.actor.discord_user_id])).toEqual([[newOne.id, USER.owner]]);
  });

  it("refuses a member, as the API's NOT_SERVER_MANAGER, and their buttons change nothing", async () => {
    const refused = await server(USER.member, 'reminders');
    expect(refused.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(refused.content).toBe("Only this server's managers can do this: its owner, members with Administrator or Manage Server, and the role its managers chose in Chime.");
    expect((await server(USER.member, 'settings')).content).toBe(refused.content);
    const target = made.find((r) => r.message === 'Task 3')!;
    const forged = await press(USER.member, `srv:pause:0:${target.id}`, 'x');
    expect(forged.data.content).toBe(refused.content);
    expect(await serverPaused(target.id)).toBeNull();
    // A holder of the server's "Chime managers" role is a manager, without any Discord permission.
    // They have no Chime account yet: like /reminders, the command makes it, then asks the service.
    expect(await accountOf(f.server.app, USER.chime)).toBeUndefined();
    const chime = await server(USER.chime, 'reminders');
    expect(chime.content).toBe(refused.content);
    expect(await accountOf(f.server.app, USER.chime)).toBeDefined();
    const saved = await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, manager_role_id: ROLE.chime });
    expect(saved.status).toBe(200);
    expect((await server(USER.chime, 'reminders')).content).toContain('> Task 3');
  });

  it('in a direct message, says to use it in a server', async () => {
    const dm = await command(f.fake, { userId: USER.member, name: 'server', options: [{ name: 'reminders', options: [] }] });
    expect(dm.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(dm.content).toBe("Use /server in a Discord server's channel: it shows that server's reminders and rules. Your own reminders are in /reminders.");
    const fr = await command(f.fake, { userId: USER.member, name: 'server', options: [{ name: 'settings', options: [] }], locale: 'fr' });
    expect(fr.content).toMatch(/^Utilisez \/serveur dans un salon d'un serveur Discord/);

    // Through a user install, in a server without Chime's bot: the API's SERVER_NOT_FOUND, in words.
    const nobot = await command(f.fake, { userId: USER.member, name: 'server', guildId: G_NOBOT, channelId: CH.nobot, options: [{ name: 'reminders', options: [] }] });
    expect(nobot.content).toBe("Chime's bot isn't in this server, so Chime has no reminders or rules here.");
  });
});

describe('/server settings', () => {
  it("shows the server's rules in words and links to its dashboard page", async () => {
    const saved = await owner.api.put(`/api/servers/${G_MAIN}/settings`, {
      ...DEFAULT_SERVER_SETTINGS,
      manager_role_id: ROLE.chime,
      who_can_create: 'role',
      creator_role_id: ROLE.creators,
      role_mentions: 'managers',
      everyone_mention: false,
      allowed_channel_ids: [CH.general, CH.announcements],
      max_reminders: 3,
      former_members: 'pause',
      default_timezone: 'Europe/Paris',
      allow_remind_me_too: false,
    });
    expect(saved.status).toBe(200);
    const shown = await server(USER.owner, 'settings');
    expect(shown.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(shown.data.allowed_mentions).toEqual({ parse: [] });
    expect(shown.content.split('\n')).toEqual([
      "**Chime's rules in this server**",
      `**Managers**: the owner, members with Administrator or Manage Server, and members with <@&${ROLE.chime}>`,
      `**Who can make reminders here**: members with <@&${ROLE.creators}>, and managers`,
      '**Who can mention roles**: managers only',
      '**@everyone in reminders**: managers only',
      `**Channels**: <#${CH.general}>, <#${CH.announcements}>`,
      '**Reminders per member**: 3',
      '**When a creator leaves the server**: their reminders are paused in this server',
      '**"Remind me too" buttons**: turned off',
      '**Time zone of members new to Chime**: Europe/Paris',
      `Managers change these rules on the server's page in the dashboard: <http://localhost:5173/servers/${G_MAIN}>`,
    ]);
    expect(shown.data.components).toEqual([{ type: 1, components: [{ type: 2, style: 5, label: 'Open in the dashboard', url: `http://localhost:5173/servers/${G_MAIN}` }] }]);

    // Discord refusing the link button (a PUBLIC_URL it does not take as a link): the same answer
    // without the button, the address being in the text.
    f.fake.failNext({
      pathPattern: /\/interactions\/\d+\/[^/]+\/callback/,
      status: 400,
      body: { code: 50035, message: 'Invalid Form Body', errors: { data: { components: { 0: { components: { 0: { url: { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' }] } } } } } } } },
    });
    const plain = await server(USER.owner, 'settings');
    expect(plain.content).toBe(shown.content);
    expect(plain.data.components).toEqual([]);
  });

  it('answers in French, the rules and the list alike', async () => {
    const settings = await server(USER.owner, 'settings', 'fr');
    expect(settings.content).toContain('**Les règles de Chime dans ce serveur**');
    expect(settings.content).toContain('**Rappels par membre** : 3');
    expect(settings.content).toContain('**Quand un auteur quitte le serveur** : ses rappels sont mis en pause dans ce serveur');
    expect(buttons(settings.data)).toEqual([[`http://localhost:5173/servers/${G_MAIN}`, 'Ouvrir dans le tableau de bord', false]]);
    const list = await server(USER.owner, 'reminders', 'fr');
    expect(list.content).toContain('**Rappels publiés dans ce serveur**');
    expect(list.content).toContain(`dans <#${CH.general}> · par member`);
    expect(buttons(list.data)[1]![1]).toBe('Retirer 1');
    const refused = await server(USER.member, 'reminders', 'fr');
    expect(refused.content).toMatch(/^Seuls les gestionnaires de ce serveur peuvent faire cela/);
  });
});
