/** The server picker's channel logic: kinds, forum tags, and the metadata it saves (docs/discord.md "Kinds of channels"). */
import { describe, expect, it } from 'vitest';
import {
  channelKind,
  channelReady,
  hasThreads,
  MAX_FORUM_TAGS,
  pickerChannelMetadata,
  POSTABLE_CHANNEL_TYPES,
  toggleForumTag,
  withArchivedThreads,
} from '../../../../../../web/src/features/reminders/api/destinations.ts';

const GUILD = '100000000000000001';
const forum = (extra: Record<string, unknown> = {}) => ({
  id: '100000000000000015',
  type: 15,
  tags: [1, 2, 3, 4, 5, 6].map((n) => ({ id: `20000000000000000${n}`, name: `tag${n}`, moderated: false })),
  ...extra,
});

describe('channel kinds', () => {
  it('offers threads, forums and media channels with their own kind, and reads unknown types as text', () => {
    expect(POSTABLE_CHANNEL_TYPES).toEqual(expect.arrayContaining([0, 2, 5, 13, 10, 11, 12, 15, 16]));
    expect([0, 5, 2, 13, 10, 11, 12, 15, 16, 4, undefined].map(channelKind)).toEqual([
      'text',
      'announcement',
      'voice',
      'stage',
      'thread',
      'thread',
      'privateThread',
      'forum',
      'media',
      'text',
      'text',
    ]);
  });
});

describe('forum tags', () => {
  it('toggles a forum tag on and off, only the forum\'s own, at most five', () => {
    const f = forum();
    let chosen = toggleForumTag(f, [], f.tags[0]!.id);
    expect(chosen).toEqual([f.tags[0]!.id]);
    expect(toggleForumTag(f, chosen, f.tags[0]!.id)).toEqual([]);
    expect(toggleForumTag(f, chosen, '999999999999999999')).toEqual(chosen);
    for (const tag of f.tags.slice(1)) chosen = toggleForumTag(f, chosen, tag.id);
    expect(chosen).toHaveLength(MAX_FORUM_TAGS);
    expect(chosen).not.toContain(f.tags[5]!.id);
  });

  it('is ready to save a forum that requires a tag only once one is chosen', () => {
    expect(channelReady(null, [])).toBe(false);
    expect(channelReady({ type: 0 }, [])).toBe(true);
    expect(channelReady(forum(), [])).toBe(true);
    expect(channelReady(forum({ require_tag: true }), [])).toBe(false);
    expect(channelReady(forum({ require_tag: true }), ['200000000000000001'])).toBe(true);
    expect(channelReady({ type: 16, require_tag: true }, [])).toBe(false);
  });
});

describe('the metadata the picker saves', () => {
  it('keeps tags for a forum, publish for an announcement channel, and neither elsewhere', () => {
    const tags = ['200000000000000001'];
    expect(pickerChannelMetadata(GUILD, forum(), { tags, publish: true })).toEqual({ guild_id: GUILD, channel_id: forum().id, forum_tag_ids: tags, channel_type: 15 });
    expect(pickerChannelMetadata(GUILD, { id: '5', type: 5 }, { tags, publish: true, roleId: '7' })).toEqual({
      guild_id: GUILD,
      channel_id: '5',
      mention_role_id: '7',
      publish: true,
      channel_type: 5,
    });
    // A thread (a forum's post among them) is posted into: no tags, no publishing.
    expect(pickerChannelMetadata(GUILD, { id: '11', type: 11 }, { tags, publish: true })).toEqual({ guild_id: GUILD, channel_id: '11', channel_type: 11 });
    expect(pickerChannelMetadata(GUILD, forum(), {})).not.toHaveProperty('forum_tag_ids');
  });
});

describe('archived threads in the picker', () => {
  const row = (id: string, parent_id?: string) => ({ id, ...(parent_id ? { parent_id } : {}) });
  it('adds a channel\'s archived threads after its active ones, once each', () => {
    const list = [row('general'), row('plans', 'general'), row('news'), row('notes', 'news')];
    const merged = withArchivedThreads(list, 'general', [row('old', 'general'), row('plans', 'general')]);
    expect(merged.map((c) => c.id)).toEqual(['general', 'plans', 'old', 'news', 'notes']);
    expect(withArchivedThreads(list, 'news', [row('older', 'news')]).map((c) => c.id)).toEqual(['general', 'plans', 'news', 'notes', 'older']);
  });

  it('offers archived threads for the channels that have threads', () => {
    expect([0, 5, 15, 16, 2, 13, 11].map(hasThreads)).toEqual([true, true, true, true, false, false, false]);
  });
});
