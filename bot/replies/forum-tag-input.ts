/**
 * /remind's `tags:` option: tag names typed one after the other, separated by commas ("bug, urgent").
 * The names become the forum's tag ids when the reminder is saved, by the API's rule
 * (server/destinations/discord-channel/index.ts); here are only the words and the suggestions.
 */

/** Discord's limit on an autocomplete choice's name and value. */
const CHOICE_MAX = 100;
/** Discord shows at most 25 suggestions. */
const MAX_CHOICES = 25;

/** The names typed, trimmed, without empty ones nor the same name twice (in any case). */
export function splitTagWords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(',')) {
    const word = part.trim();
    if (!word || seen.has(word.toLocaleLowerCase())) continue;
    seen.add(word.toLocaleLowerCase());
    out.push(word);
  }
  return out;
}

export interface TagChoice {
  name: string;
  value: string;
}

/**
 * Suggestions while `typed` is being written: the names already complete (before the last comma)
 * are kept (in the forum's spelling), and each tag not chosen yet whose name contains what follows completes the list (those
 * that start with it first). Moderated tags say so (`moderatedNote`): only members who manage
 * threads may apply them. At most `max` tags in all, as Discord allows on a post.
 */
export function tagCompletions(tags: ReadonlyArray<{ id: string; name: string; moderated: boolean }>, typed: string, moderatedNote: string, max = 5): TagChoice[] {
  const parts = typed.split(',');
  const partial = (parts.pop() ?? '').trim().toLocaleLowerCase();
  // The names already typed, spelled as the forum spells them where they match one of its tags.
  const chosen = splitTagWords(parts.join(',')).map((w) => tags.find((t) => t.name.toLocaleLowerCase() === w.toLocaleLowerCase())?.name ?? w);
  const chosenKeys = new Set(chosen.map((w) => w.toLocaleLowerCase()));
  const label = (value: string, moderated: boolean) => {
    const note = moderated ? ` (${moderatedNote})` : '';
    return value.length + note.length <= CHOICE_MAX ? `${value}${note}` : value;
  };
  if (chosen.length >= max) {
    const value = chosen.join(', ');
    return value.length <= CHOICE_MAX ? [{ name: value, value }] : [];
  }
  const rank = (name: string) => (name.toLocaleLowerCase().startsWith(partial) ? 0 : 1);
  return tags
    .filter((t) => !chosenKeys.has(t.name.toLocaleLowerCase()) && t.name.toLocaleLowerCase().includes(partial))
    .sort((a, b) => rank(a.name) - rank(b.name))
    .map((t) => ({ value: [...chosen, t.name].join(', '), moderated: t.moderated }))
    .filter((c) => c.value.length <= CHOICE_MAX)
    .slice(0, MAX_CHOICES)
    .map((c) => ({ name: label(c.value, c.moderated), value: c.value }));
}
