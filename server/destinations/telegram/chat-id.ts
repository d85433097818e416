/**
 * A Telegram chat id as Chime keeps it: decimal text (ids go up to 52 bits, and groups and
 * supergroups are negative, "-100..."), so no JavaScript number rounds it. Pure.
 */
const CHAT_ID = /^-?[1-9]\d{0,19}$/;

export function parseChatId(raw: unknown): string | null {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return CHAT_ID.test(text) ? text : null;
}
