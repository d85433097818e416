/** /remind's `tags:`: the names typed, and the suggestions that complete them from the forum's tags. */
import { describe, expect, it } from 'vitest';
import { splitTagWords, tagCompletions } from '../../../bot/replies/forum-tag-input.ts';

const tags = [
  { id: '1', name: 'Bug', moderated: false },
  { id: '2', name: 'Feature', moderated: false },
  { id: '3', name: 'Debugging', moderated: false },
  { id: '4', name: 'Staff pick', moderated: true },
];

describe('splitTagWords', () => {
  it('splits on commas, trims, drops empty ones and repeats in any case', () => {
    expect(splitTagWords(' bug ,, Feature,BUG, ')).toEqual(['bug', 'Feature']);
    expect(splitTagWords('')).toEqual([]);
    expect(splitTagWords('Staff pick')).toEqual(['Staff pick']);
  });
});

describe('tagCompletions', () => {
  it('offers every tag when nothing is typed, moderated ones marked', () => {
    expect(tagCompletions(tags, '', 'mods')).toEqual([
      { name: 'Bug', value: 'Bug' },
      { name: 'Feature', value: 'Feature' },
      { name: 'Debugging', value: 'Debugging' },
      { name: 'Staff pick (mods)', value: 'Staff pick' },
    ]);
  });

  it('completes the last name, those starting with it first, without the names already chosen', () => {
    expect(tagCompletions(tags, 'bug', 'mods').map((c) => c.value)).toEqual(['Bug', 'Debugging']);
    expect(tagCompletions(tags, 'bug, ', 'mods').map((c) => c.value)).toEqual(['Bug, Feature', 'Bug, Debugging', 'Bug, Staff pick']);
    expect(tagCompletions(tags, 'FEATURE, bug,de', 'mods').map((c) => c.value)).toEqual(['Feature, Bug, Debugging']);
    expect(tagCompletions(tags, 'x', 'mods')).toEqual([]);
  });

  it('stops adding at the most a post carries, and keeps every value within 100 characters', () => {
    expect(tagCompletions(tags, 'a, b, c, d, e, f', 'mods', 5)).toEqual([{ name: 'a, b, c, d, e', value: 'a, b, c, d, e' }]);
    const long = [{ id: '9', name: 'x'.repeat(60), moderated: true }];
    expect(tagCompletions(long, '', 'moderators only')).toEqual([{ name: 'x'.repeat(60) + ' (moderators only)', value: 'x'.repeat(60) }]);
    expect(tagCompletions(long, `${'y'.repeat(50)}, x`, 'mods')).toEqual([]);
  });
});
