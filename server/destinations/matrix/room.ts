/**
 * Matrix room ids and aliases as a user types them (Matrix appendix "Identifier grammar"):
 * `!opaque_id:server.name` (room versions 1-11; from room version 12 a room id has no server part)
 * and `#alias:server.name`. At most 255 bytes, no spaces or control characters.
 */
const ROOM_ID = /^![\x21-\x7e]+$/;
const ROOM_ALIAS = /^#[^\s:]+:[^\s:]+(:\d{1,5})?$/;

export type RoomRef = { kind: 'id' | 'alias'; value: string };

export function parseRoom(raw: unknown): RoomRef | null {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text || Buffer.byteLength(text) > 255 || /[\s\p{Cc}]/u.test(text)) return null;
  if (ROOM_ID.test(text)) return { kind: 'id', value: text };
  if (ROOM_ALIAS.test(text)) return { kind: 'alias', value: text };
  return null;
}
