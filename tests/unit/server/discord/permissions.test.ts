import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADMINISTRATOR,
  ALL_PERMISSIONS,
  canViewAndSend,
  computeBasePermissions,
  computeChannelPermissions,
  hasPermission,
  MANAGE_THREADS,
  MENTION_EVERYONE,
  type MemberPermissionContext,
  type PermissionOverwrite,
  SEND_MESSAGES,
  SEND_MESSAGES_IN_THREADS,
  VIEW_CHANNEL,
} from '../../../../server/discord/permissions.ts';
import { channelRefusal, type ChannelFacts, type ThreadFacts } from '../../../../server/discord/channel-rule.ts';
import { ALL_PERMISSIONS as FAKE_ALL, computeMemberPermissions as fakeCompute } from '../../../helpers/fake-discord/index.ts';

const GUILD = '100000000000000000';
const OWNER = '200000000000000000';
const USER = '300000000000000000';
const ROLE_A = '400000000000000001';
const ROLE_B = '400000000000000002';
const ROLE_C = '400000000000000003';
const EVERYONE_PERMS = VIEW_CHANNEL | SEND_MESSAGES;

function ctx(patch: Partial<MemberPermissionContext> = {}): MemberPermissionContext {
  return {
    guildId: GUILD,
    ownerId: OWNER,
    userId: USER,
    roles: [
      { id: GUILD, permissions: EVERYONE_PERMS.toString() },
      { id: ROLE_A, permissions: '0' },
      { id: ROLE_B, permissions: MENTION_EVERYONE.toString() },
      { id: ROLE_C, permissions: ADMINISTRATOR.toString() },
    ],
    memberRoleIds: [],
    ...patch,
  };
}

const ow = (id: string, type: 0 | 1, allow: bigint, deny: bigint): PermissionOverwrite => ({ id, type, allow: allow.toString(), deny: deny.toString() });

describe('Discord permission algorithm', () => {
  it('base = @everyone | member roles', () => {
    expect(computeBasePermissions(ctx())).toBe(EVERYONE_PERMS);
    expect(computeBasePermissions(ctx({ memberRoleIds: [ROLE_B] }))).toBe(EVERYONE_PERMS | MENTION_EVERYONE);
  });

  it('the owner and ADMINISTRATOR get everything, and overwrites cannot take it away', () => {
    const denyAll = [ow(GUILD, 0, 0n, VIEW_CHANNEL | SEND_MESSAGES), ow(OWNER, 1, 0n, VIEW_CHANNEL), ow(USER, 1, 0n, VIEW_CHANNEL)];
    expect(computeChannelPermissions(ctx({ userId: OWNER }), denyAll)).toBe(ALL_PERMISSIONS);
    expect(computeChannelPermissions(ctx({ memberRoleIds: [ROLE_C] }), denyAll)).toBe(ALL_PERMISSIONS);
  });

  it('@everyone deny is lifted by a role allow', () => {
    const overwrites = [ow(GUILD, 0, 0n, VIEW_CHANNEL), ow(ROLE_A, 0, VIEW_CHANNEL, 0n)];
    expect(canViewAndSend(computeChannelPermissions(ctx(), overwrites))).toBe(false);
    expect(canViewAndSend(computeChannelPermissions(ctx({ memberRoleIds: [ROLE_A] }), overwrites))).toBe(true);
  });

  it('role overwrites are combined: an allow on one role beats a deny on another, whatever the order', () => {
    const a = [ow(ROLE_A, 0, 0n, SEND_MESSAGES), ow(ROLE_B, 0, SEND_MESSAGES, 0n)];
    const b = [...a].reverse();
    for (const overwrites of [a, b]) {
      expect(hasPermission(computeChannelPermissions(ctx({ memberRoleIds: [ROLE_A, ROLE_B] }), overwrites), SEND_MESSAGES)).toBe(true);
    }
    // Only the denying role: denied.
    expect(hasPermission(computeChannelPermissions(ctx({ memberRoleIds: [ROLE_A] }), a), SEND_MESSAGES)).toBe(false);
  });

  it('the member overwrite comes last: its deny beats role allows, its allow beats role denies', () => {
    const deny = [ow(ROLE_A, 0, SEND_MESSAGES, 0n), ow(USER, 1, 0n, SEND_MESSAGES)];
    expect(hasPermission(computeChannelPermissions(ctx({ memberRoleIds: [ROLE_A] }), deny), SEND_MESSAGES)).toBe(false);
    const allow = [ow(GUILD, 0, 0n, SEND_MESSAGES), ow(ROLE_A, 0, 0n, SEND_MESSAGES), ow(USER, 1, SEND_MESSAGES, 0n)];
    expect(hasPermission(computeChannelPermissions(ctx({ memberRoleIds: [ROLE_A] }), allow), SEND_MESSAGES)).toBe(true);
  });

  it('a role overwrite with the id of a role the member lacks, or a member overwrite of someone else, does nothing', () => {
    const overwrites = [ow(ROLE_B, 0, 0n, VIEW_CHANNEL), ow(OWNER, 1, 0n, VIEW_CHANNEL)];
    expect(canViewAndSend(computeChannelPermissions(ctx(), overwrites))).toBe(true);
  });

  it('a member overwrite whose id equals the guild id is not the @everyone overwrite', () => {
    // type 1 with the guild id: a (nonsensical) member overwrite, not @everyone.
    const overwrites = [ow(GUILD, 1, 0n, VIEW_CHANNEL)];
    expect(canViewAndSend(computeChannelPermissions(ctx(), overwrites))).toBe(true);
  });

  it('@everyone allow in the channel grants MENTION_EVERYONE there only', () => {
    const overwrites = [ow(GUILD, 0, MENTION_EVERYONE, 0n)];
    expect(hasPermission(computeBasePermissions(ctx()), MENTION_EVERYONE)).toBe(false);
    expect(hasPermission(computeChannelPermissions(ctx(), overwrites), MENTION_EVERYONE)).toBe(true);
  });

  it('a timed-out member keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY, even with an allow overwrite', () => {
    const until = new Date(Date.now() + 60_000).toISOString();
    const perms = computeChannelPermissions(ctx({ communicationDisabledUntil: until }), [ow(USER, 1, SEND_MESSAGES, 0n)]);
    expect(hasPermission(perms, VIEW_CHANNEL)).toBe(true);
    expect(hasPermission(perms, SEND_MESSAGES)).toBe(false);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(canViewAndSend(computeChannelPermissions(ctx({ communicationDisabledUntil: past }), []))).toBe(true);
  });

  it('string, number and bigint permission values and unknown roles are handled', () => {
    const c = ctx({
      roles: [{ id: GUILD, permissions: Number(VIEW_CHANNEL) }, { id: ROLE_A, permissions: SEND_MESSAGES }],
      memberRoleIds: [ROLE_A, '999999999999999999'],
    });
    expect(computeBasePermissions(c)).toBe(VIEW_CHANNEL | SEND_MESSAGES);
  });

  it('agrees with the fake Discord implementation on random guilds (property)', () => {
    const bits = fc.bigInt({ min: 0n, max: (1n << 53n) - 1n });
    const roleIds = [GUILD, ROLE_A, ROLE_B, ROLE_C];
    const overwriteArb = fc.record({
      id: fc.constantFrom(GUILD, ROLE_A, ROLE_B, ROLE_C, USER, OWNER),
      type: fc.constantFrom(0 as const, 1 as const),
      allow: bits,
      deny: bits,
    });
    fc.assert(
      fc.property(
        fc.array(bits, { minLength: 4, maxLength: 4 }),
        fc.subarray([ROLE_A, ROLE_B, ROLE_C]),
        fc.uniqueArray(overwriteArb, { selector: (o) => `${o.type}:${o.id}`, maxLength: 6 }),
        fc.boolean(),
        (rolePerms, memberRoleIds, overwrites, isOwner) => {
          const c = {
            guildId: GUILD,
            ownerId: isOwner ? USER : OWNER,
            userId: USER,
            roles: roleIds.map((id, i) => ({ id, permissions: rolePerms[i]!.toString() })),
            memberRoleIds,
          };
          const ours = computeChannelPermissions(c, overwrites);
          const theirs = fakeCompute(c, overwrites.map((o) => ({ ...o, allow: o.allow.toString(), deny: o.deny.toString() })));
          // The fake's "all" is every known bit; ours is every bit.
          expect(ours & FAKE_ALL).toBe(theirs & FAKE_ALL);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/**
 * server/discord/channel-rule.ts: the one "who may post where" rule. The bot feeds it what an
 * interaction carries, the API and the channel sender what they read over REST (the Discord API
 * and bot tests cover both ends); here the rule itself.
 */
describe('channel rule', () => {
  const POST = VIEW_CHANNEL | SEND_MESSAGES;
  const facts = (patch: Partial<ChannelFacts> = {}): ChannelFacts => ({ channelType: 0, userPermissions: POST, botPermissions: POST, role: null, ...patch });

  it('lets a member post through a bot that may, in a text channel', async () => {
    expect(await channelRefusal(facts())).toBeNull();
    expect(await channelRefusal(facts({ role: { mentionable: true } }))).toBeNull();
    // A caller that cannot see the channel's type (an uncached interaction channel) leaves it to Discord.
    expect(await channelRefusal(facts({ channelType: null }))).toBeNull();
  });

  it('posts in text and announcement channels and in the chat of voice and stage channels, on the same permissions', async () => {
    for (const channelType of [0, 2, 5, 13]) {
      expect(await channelRefusal(facts({ channelType }))).toBeNull();
      expect(await channelRefusal(facts({ channelType, botPermissions: VIEW_CHANNEL }))).toBe('BOT_CANNOT_SEND');
    }
  });

  it('refuses, in order: the channel, the owner, the bot, the role', async () => {
    // A category (4) and a directory (14) take no reminder; the channel comes first.
    for (const channelType of [4, 14]) expect(await channelRefusal(facts({ channelType, userPermissions: 0n }))).toBe('NOT_TEXT_CHANNEL');
    expect(await channelRefusal(facts({ userPermissions: null, botPermissions: null }))).toBe('NOT_MEMBER');
    expect(await channelRefusal(facts({ userPermissions: SEND_MESSAGES }))).toBe('USER_CANNOT_VIEW');
    expect(await channelRefusal(facts({ userPermissions: VIEW_CHANNEL, botPermissions: 0n }))).toBe('USER_CANNOT_SEND');
    expect(await channelRefusal(facts({ botPermissions: null, role: 'missing' }))).toBe('BOT_NOT_IN_GUILD');
    expect(await channelRefusal(facts({ botPermissions: VIEW_CHANNEL, role: 'missing' }))).toBe('BOT_CANNOT_SEND');
    expect(await channelRefusal(facts({ role: 'missing' }))).toBe('UNKNOWN_ROLE');
    expect(await channelRefusal(facts({ role: { mentionable: false } }))).toBe('USER_CANNOT_MENTION_ROLE');
    expect(await channelRefusal(facts({ userPermissions: POST | MENTION_EVERYONE, role: { mentionable: false } }))).toBe('BOT_CANNOT_MENTION_ROLE');
    expect(await channelRefusal(facts({ userPermissions: POST | MENTION_EVERYONE, botPermissions: POST | MENTION_EVERYONE, role: { mentionable: false } }))).toBeNull();
  });

  it('posts in forum and media channels on Send Messages (which means "create posts" there)', async () => {
    for (const channelType of [15, 16]) {
      expect(await channelRefusal(facts({ channelType }))).toBeNull();
      expect(await channelRefusal(facts({ channelType, userPermissions: VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS }))).toBe('USER_CANNOT_SEND');
    }
  });

  it('posts in threads on Send Messages in Threads instead of Send Messages; private ones need the bot (and the owner) in them', async () => {
    const IN_THREADS = VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS;
    const thread = (patch: Partial<ThreadFacts> = {}): ThreadFacts => ({ archived: false, locked: false, userIsMember: true, botIsMember: true, ...patch });
    for (const channelType of [10, 11, 12]) {
      expect(await channelRefusal(facts({ channelType, userPermissions: IN_THREADS, botPermissions: IN_THREADS, thread: thread() }))).toBeNull();
      // Send Messages alone does not reach a thread.
      expect(await channelRefusal(facts({ channelType, thread: thread() }))).toBe('USER_CANNOT_SEND_IN_THREADS');
      expect(await channelRefusal(facts({ channelType, userPermissions: IN_THREADS, thread: thread() }))).toBe('BOT_CANNOT_SEND_IN_THREADS');
    }
    const both = { userPermissions: IN_THREADS, botPermissions: IN_THREADS };
    expect(await channelRefusal(facts({ channelType: 12, ...both, thread: thread({ userIsMember: false }) }))).toBe('USER_NOT_IN_THREAD');
    // A moderator sees every private thread; the bot still has to be added.
    expect(await channelRefusal(facts({ channelType: 12, ...both, userPermissions: IN_THREADS | MANAGE_THREADS, thread: thread({ userIsMember: false }) }))).toBeNull();
    expect(await channelRefusal(facts({ channelType: 12, ...both, botPermissions: IN_THREADS | MANAGE_THREADS, thread: thread({ botIsMember: async () => false }) }))).toBe('BOT_NOT_IN_THREAD');
    // Membership matters in private threads only.
    expect(await channelRefusal(facts({ channelType: 11, ...both, thread: thread({ userIsMember: false, botIsMember: false }) }))).toBeNull();
  });

  it('takes an archived thread the bot may reopen: any unlocked one, a locked one with Manage Threads', async () => {
    const IN_THREADS = VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS;
    const archived = (locked: boolean): ThreadFacts => ({ archived: true, locked, userIsMember: true, botIsMember: true });
    const both = { channelType: 11, userPermissions: IN_THREADS, botPermissions: IN_THREADS };
    expect(await channelRefusal(facts({ ...both, thread: archived(false) }))).toBeNull();
    expect(await channelRefusal(facts({ ...both, thread: archived(true) }))).toBe('THREAD_LOCKED');
    expect(await channelRefusal(facts({ ...both, botPermissions: IN_THREADS | MANAGE_THREADS, thread: archived(true) }))).toBeNull();
  });

  it('gives an administrator every permission', async () => {
    expect(await channelRefusal(facts({ userPermissions: ADMINISTRATOR, botPermissions: ADMINISTRATOR, role: { mentionable: false } }))).toBeNull();
  });

  it('reads the bot only once the owner passes (the server fetches members over REST)', async () => {
    let botRead = 0;
    const bot = () => {
      botRead += 1;
      return POST;
    };
    expect(await channelRefusal(facts({ userPermissions: async () => 0n, botPermissions: bot }))).toBe('USER_CANNOT_VIEW');
    expect(botRead).toBe(0);
    expect(await channelRefusal(facts({ userPermissions: async () => POST, botPermissions: bot }))).toBeNull();
    expect(botRead).toBe(1);
  });
});
