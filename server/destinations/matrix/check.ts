/**
 * The check when a Matrix destination is added (every save, and POST /api/destinations/check):
 * an alias is resolved (`GET /directory/room/{alias}`); the bot must be in the room already or
 * invited to it (a `/sync` filtered to that one room and no events says which): a public room
 * the bot was never invited to is refused, so nobody can send the administrator's bot into rooms
 * that did not ask for it. Then the bot joins (`POST /join/{roomIdOrAlias}`), which accepts the
 * invitation and is harmless when it is in. The room id the homeserver answers is stored
 * (`room_id`) and used by every delivery. A refusal is PUSH_CHECK_FAILED with the precise MATRIX_ code in `reason`.
 */
import type { Config, MatrixConfig } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { createPushClient, type PushClient } from '../push-common/http.ts';
import type { DestinationMetadata } from '../types.ts';
import { MATRIX_CODES } from './answers.ts';
import { matrixCall, segment } from './client.ts';
import { parseRoom } from './room.ts';

/** A check waits at most this long: the dashboard is waiting. */
const CHECK_TIMEOUT_MS = 8_000;
/** A /sync answer, even filtered to one room, carries the account's to-device and device-list parts. */
const MAX_SYNC_BYTES = 1024 * 1024;

const refused = (result: { ok: false; code: string; error: string }) => new AppError('PUSH_CHECK_FAILED', result.error, 400, { reason: result.code });

/**
 * Whether the bot is in `roomId` or invited to it: `GET /sync` with `timeout=0` and a filter that
 * keeps that room only and no events (`rooms.join` or `rooms.invite` then holds it). Not
 * `/joined_rooms`: a bot serving many users is in many rooms.
 */
async function joinedOrInvited(client: PushClient, matrix: MatrixConfig, roomId: string): Promise<boolean> {
  const none = { types: [] as string[] };
  const filter = { presence: none, account_data: none, room: { rooms: [roomId], timeline: { limit: 0 }, state: none, ephemeral: none, account_data: none } };
  const sync = await matrixCall(client, matrix, { method: 'GET', path: `/_matrix/client/v3/sync?timeout=0&filter=${encodeURIComponent(JSON.stringify(filter))}`, what: "reading the bot's invites" });
  if (!sync.result.ok) throw refused(sync.result);
  const rooms = sync.json?.rooms as { join?: Record<string, unknown>; invite?: Record<string, unknown> } | undefined;
  return [rooms?.join, rooms?.invite].some((section) => section !== undefined && section !== null && typeof section === 'object' && Object.hasOwn(section, roomId));
}

/** Who the homeserver says the bot's token belongs to (`GET /account/whoami`): the administrator's check (npm run admin -- doctor). */
export async function whoamiMatrix(config: Pick<Config, 'matrix' | 'webhookAllowPrivateTargets'>): Promise<{ ok: true; userId: string } | { ok: false; code: string; error: string }> {
  const matrix = config.matrix;
  if (!matrix) return { ok: false, code: 'MATRIX_NOT_CONFIGURED', error: 'Matrix is not configured' };
  const client = createPushClient({ allowPrivateTargets: config.webhookAllowPrivateTargets, timeoutMs: CHECK_TIMEOUT_MS });
  try {
    const who = await matrixCall(client, matrix, { method: 'GET', path: '/_matrix/client/v3/account/whoami', what: 'checking the token' });
    if (!who.result.ok) return { ok: false, code: who.result.code, error: who.result.error };
    const userId = typeof who.json?.user_id === 'string' ? who.json.user_id : null;
    return userId ? { ok: true, userId } : { ok: false, code: MATRIX_CODES.REJECTED, error: 'The homeserver answered whoami without a user id' };
  } finally {
    await client.close();
  }
}

export async function checkMatrixRoom(config: Pick<Config, 'matrix' | 'webhookAllowPrivateTargets'>, metadata: DestinationMetadata): Promise<void> {
  const matrix = config.matrix;
  if (!matrix) throw new AppError('MATRIX_NOT_CONFIGURED', 'Matrix is not configured on this server: ask its administrator');
  const room = parseRoom(metadata.room);
  if (!room) throw new AppError('INVALID_DESTINATION', 'metadata.room must be a Matrix room id (!abc:example.org) or alias (#room:example.org)');
  const client = createPushClient({ allowPrivateTargets: config.webhookAllowPrivateTargets, timeoutMs: CHECK_TIMEOUT_MS, maxAnswerBytes: MAX_SYNC_BYTES });
  try {
    let resolved: string | null = null;
    if (room.kind === 'alias') {
      const found = await matrixCall(client, matrix, { method: 'GET', path: `/_matrix/client/v3/directory/room/${segment(room.value)}`, what: 'resolving the alias' });
      if (!found.result.ok) throw refused(found.result);
      resolved = typeof found.json?.room_id === 'string' ? found.json.room_id : null;
      if (!resolved) throw refused({ ok: false, code: MATRIX_CODES.REJECTED, error: `The homeserver answered no room id for ${room.value}` });
    }
    const target = resolved ?? room.value;
    if (!(await joinedOrInvited(client, matrix, target))) {
      throw refused({ ok: false, code: MATRIX_CODES.FORBIDDEN, error: `The room ${room.value} has not invited Chime's bot (or does not exist): invite the bot to the room first` });
    }
    const joined = await matrixCall(client, matrix, { method: 'POST', path: `/_matrix/client/v3/join/${segment(room.value)}`, body: {}, what: 'joining the room' });
    if (!joined.result.ok) throw refused(joined.result);
    const roomId = typeof joined.json?.room_id === 'string' ? joined.json.room_id : (resolved ?? (room.kind === 'id' ? room.value : null));
    if (!roomId || !parseRoom(roomId) || !roomId.startsWith('!')) throw refused({ ok: false, code: MATRIX_CODES.REJECTED, error: 'The homeserver answered the join without a room id' });
    metadata.room_id = roomId;
  } finally {
    await client.close();
  }
}
