import { describe, expect, it } from 'vitest';
import { chatDestination, chatsToOffer, codeExpired, newlyConnected } from '../../../../../../web/src/features/reminders/lib/telegram-link.ts';

const chat = (chat_id: string, label = `chat ${chat_id}`) => ({ id: `id-${chat_id}`, chat_id, chat_type: 'private', label, connected_at: '2026-11-28T04:00:00.000Z' });

describe('the Telegram form', () => {
  it('knows when a shown code has expired', () => {
    const code = { expires_at: '2026-11-28T04:10:00.000Z' };
    expect(codeExpired(code, Date.parse('2026-11-28T04:09:59.999Z'))).toBe(false);
    expect(codeExpired(code, Date.parse('2026-11-28T04:10:00.000Z'))).toBe(true);
    expect(codeExpired({ expires_at: 'nonsense' }, 0)).toBe(true);
  });

  it('finds the chat that connected since the code was shown', () => {
    const before = new Set(['1', '2']);
    expect(newlyConnected([chat('1'), chat('2')], before)).toEqual([]);
    expect(newlyConnected([chat('3'), chat('1')], before)).toEqual([chat('3')]);
    expect(newlyConnected(undefined, before)).toEqual([]);
  });

  it('offers the connected chats the reminder does not send to yet, as destinations labelled by Telegram', () => {
    const list = [{ type: 'telegram' as const, metadata: { chat_id: '1' } }, { type: 'email' as const, metadata: { address: '2' } }];
    expect(chatsToOffer([chat('1'), chat('2'), chat('-100')], list).map((c) => c.chat_id)).toEqual(['2', '-100']);
    expect(chatDestination(chat('-100', 'Family'))).toEqual({ type: 'telegram', metadata: { chat_id: '-100' }, label: 'Family' });
  });
});
