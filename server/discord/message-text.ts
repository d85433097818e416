/** Text helpers for what Chime posts on Discord (the bot's answers and delivered messages). */

/** Epoch milliseconds -> the seconds Discord's `<t:...>` markup takes. */
export const unix = (ms: number) => Math.floor(ms / 1000);

/** Cuts to at most `max` UTF-16 units (Discord's limits), never inside a surrogate pair, with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, max);
  let cut = text.slice(0, max - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** One line for lists, autocomplete names and notices. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * "@everyone" and "@here" made inert: a zero-width space after the @. Discord pings them wherever
 * they appear (inside a word too) once a message's allowed_mentions lets @everyone through, so
 * text a user typed or quoted never reaches the whole server by accident.
 */
export const inertEveryone = (text: string): string => text.replace(/@(everyone|here)/g, '@\u200b$1');
