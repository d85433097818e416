/**
 * /remind's `tags:` for a forum chosen in `channel:`: suggested from the forum's tags while typing
 * (autocomplete), read by name when the reminder is saved with the API's own rules (a forum that
 * requires a tag, a tag it lacks, moderated tags, tags outside a forum), and carried by each post
 * the reminder opens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionFlags, startFakeDiscord } from '../../helpers/fake-discord/index.ts';
import { accountOf, type BotEnv, command, EPHEMERAL, fireNow, ids, interact, seedDiscord, startChime } from '../../helpers/bot-harness.ts';

const FORUM_GUILD = '300000000000000201';
const CH = { lobby: '300000000000000211', ideas: '300000000000000212', free: '300000000000000213' };
const TAG = { bug: '300000000000000221', feature: '300000000000000222', staff: '300000000000000223', misc: '300000000000000224' };
const MODS = '300000000000000231';
const REQUIRE_TAG = 1 << 4;

let env: BotEnv;
beforeAll(async () => {
  const fake = await startFakeDiscord();
  seedDiscord(fake);
  fake.addGuild({
    id: FORUM_GUILD,
    name: 'Forum Guild',
    ownerId: ids.carol,
    roles: [{ id: MODS, name: 'mods', permissions: PermissionFlags.ManageThreads }],
    channels: [
      { id: CH.lobby, name: 'lobby' },
      {
        id: CH.ideas,
        name: 'ideas',
        type: 15,
        flags: REQUIRE_TAG,
        available_tags: [
          { id: TAG.bug, name: 'Bug' },
          { id: TAG.feature, name: 'Feature' },
          { id: TAG.staff, name: 'Staff pick', moderated: true },
        ],
      },
      { id: CH.free, name: 'free', type: 15, available_tags: [{ id: TAG.misc, name: 'misc' }] },
    ],
    // Bob manages threads; the bot does not.
    members: [{ userId: ids.alice }, { userId: ids.bob, roles: [MODS] }],
  });
  const server = await startChime(fake);
  env = { fake, server, app: server.app };
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
});

const remind = (userId: string, options: Array<{ name: string; value: string | boolean }>, locale?: string) =>
  command(env.fake, { userId, guildId: FORUM_GUILD, channelId: CH.lobby, name: 'remind', ...(locale ? { locale } : {}), options: [{ name: 'message', value: 'Triage' }, { name: 'when', value: 'tomorrow at 9' }, ...options] });

async function suggest(options: Array<{ name: string; value: string }>, locale?: string) {
  const r = await interact(env.fake, env.fake.autocomplete({ userId: ids.alice, guildId: FORUM_GUILD, channelId: CH.lobby, name: 'remind', focused: 'tags', ...(locale ? { locale } : {}), options }));
  expect(r).toMatchObject({ kind: 'callback', type: 8 });
  return (r.data?.choices ?? []) as Array<{ name: string; value: string }>;
}

describe('the tags option', () => {
  it('is registered as an autocompleted string, with its French and Spanish names', () => {
    const remindCommand = env.fake.registeredCommands().find((c) => c.name === 'remind') as any;
    expect(remindCommand.options.find((o: any) => o.name === 'tags')).toMatchObject({
      type: 3,
      autocomplete: true,
      name_localizations: { fr: 'étiquettes', 'es-ES': 'etiquetas' },
    });
  });

  it('suggests the forum\'s tags, completing the list typed so far, moderated ones marked', async () => {
    expect(await suggest([{ name: 'channel', value: CH.ideas }, { name: 'tags', value: '' }])).toEqual([
      { name: 'Bug', value: 'Bug' },
      { name: 'Feature', value: 'Feature' },
      { name: 'Staff pick (moderators only)', value: 'Staff pick' },
    ]);
    expect(await suggest([{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'bug, fe' }])).toEqual([{ name: 'Bug, Feature', value: 'Bug, Feature' }]);
    expect((await suggest([{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'Pick' }], 'fr')).map((c) => c.name)).toEqual(['Staff pick (modérateurs seulement)']);
    // No forum chosen (or a text channel): nothing to suggest.
    expect(await suggest([{ name: 'tags', value: 'b' }])).toEqual([]);
    expect(await suggest([{ name: 'channel', value: CH.lobby }, { name: 'tags', value: '' }])).toEqual([]);
  });
});

describe('reminders with tags', () => {
  it('saves the tags named (any case) as the forum\'s ids, and each new post carries them', async () => {
    const r = await remind(ids.alice, [{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'bug,  FEATURE, bug' }]);
    expect(r.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(r.content).toContain('✅');
    const account = (await accountOf(env.app, ids.alice))!;
    const [row] = await env.app.db
      .selectFrom('destinations')
      .innerJoin('reminders', 'reminders.id', 'destinations.reminder_id')
      .select(['destinations.metadata', 'reminders.id'])
      .where('reminders.account_id', '=', account.id)
      .where('destinations.type', '=', 'discord_channel')
      .execute();
    const metadata = JSON.parse(row!.metadata);
    expect(metadata).toMatchObject({ channel_id: CH.ideas, forum_tag_ids: [TAG.bug, TAG.feature], channel_type: 15 });
    // The names as typed are never stored.
    expect(metadata.forum_tag_names).toBeUndefined();

    await fireNow(env.app, row!.id);
    const post = await env.fake.waitFor(() => env.fake.threadsIn(CH.ideas).find((t) => t.name === 'Triage'), 10_000, 'the forum post');
    expect(post.thread!.applied_tags).toEqual([TAG.bug, TAG.feature]);
  });

  it('refuses with the API\'s rules, in the user\'s words: a required tag missing, an unknown one, moderated ones, tags outside a forum', async () => {
    expect((await remind(ids.alice, [{ name: 'channel', value: CH.ideas }])).content).toBe(
      'This forum requires a tag on each post: choose one in `tags` (or in the dashboard), or pick another channel.',
    );
    expect((await remind(ids.alice, [{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'Bug, nope' }])).content).toBe(
      '#ideas has no tag “nope”. Pick tags among the suggestions of `tags`.',
    );
    // Alice may not apply a moderated tag; Bob may, but the bot may not.
    expect((await remind(ids.alice, [{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'staff pick' }])).content).toBe(
      "You can't apply the tag Staff pick in #ideas: it takes the Manage Threads permission.",
    );
    expect((await remind(ids.bob, [{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'staff pick' }])).content).toBe(
      "Chime ne peut pas appliquer l'étiquette Staff pick dans #ideas. Donnez-lui la permission Gérer les fils dans ce salon, ou choisissez d'autres étiquettes.",
    );
    expect((await remind(ids.alice, [{ name: 'channel', value: CH.lobby }, { name: 'tags', value: 'Bug' }])).content).toBe(
      '#lobby is not a forum: only the new posts of a forum or media channel carry tags.',
    );
    expect((await remind(ids.alice, [{ name: 'tags', value: 'Bug' }])).content).toBe('Tags are for the posts of a forum: choose the forum in `channel`.');
    expect((await remind(ids.alice, [{ name: 'channel', value: CH.free }, { name: 'tags', value: 'a, b, c, d, e, f' }])).content).toBe('A forum post carries at most 5 tags.');
    expect((await remind(ids.alice, [{ name: 'channel', value: CH.ideas }, { name: 'tags', value: 'nope' }], 'es-ES')).content).toBe(
      '#ideas no tiene la etiqueta «nope». Elige entre las sugerencias de `etiquetas`.',
    );
    // None of these made a reminder: only the one of the test above exists.
    const account = (await accountOf(env.app, ids.alice))!;
    expect(await env.app.db.selectFrom('reminders').select('id').where('account_id', '=', account.id).execute()).toHaveLength(1);
    expect(env.fake.unhandledRequests()).toEqual([]);
  });
});
