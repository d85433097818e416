/** A forum post's title from the reminder's text (server/destinations/discord-common/delivery.ts). */
import { describe, expect, it } from 'vitest';
import { forumPostTitle } from '../../../../../server/destinations/discord-common/delivery.ts';

describe('forumPostTitle', () => {
  it('puts the text on one line and keeps its first 100 characters', () => {
    expect(forumPostTitle('  Weekly\n\nreview\tof  bugs ', 'Reminder')).toBe('Weekly review of bugs');
    expect(forumPostTitle('x'.repeat(150), 'Reminder')).toBe('x'.repeat(100));
  });

  it('counts as Discord does (UTF-16 units) without cutting a character in two', () => {
    const title = forumPostTitle(`${'a'.repeat(99)}🎉 party`, 'Reminder');
    expect(title).toBe('a'.repeat(99));
    expect(forumPostTitle('🎉'.repeat(60), 'Reminder')).toBe('🎉'.repeat(50));
  });

  it('falls back when nothing is left', () => {
    expect(forumPostTitle(' \n ', 'Reminder')).toBe('Reminder');
  });
});
