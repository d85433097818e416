const MESSAGE_IN_SENTENCE = 80;

/** A message quoted inside a sentence: one line, cut at a readable length. */
export function quoted(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > MESSAGE_IN_SENTENCE ? `${line.slice(0, MESSAGE_IN_SENTENCE - 1).trimEnd()}…` : line;
}
