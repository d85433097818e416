/**
 * Matrix (docs/notifications.md "Matrix"): messages to a room, sent by the administrator's bot
 * account (MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN). Metadata `{ room, room_id }`: `room` as the
 * user typed it (a room id or an alias), `room_id` what the homeserver resolved it to when the bot
 * joined (the check; never taken from a client). The user gives no credential.
 */
import { AppError } from '../../errors.ts';
import type { DestinationModule } from '../types.ts';
import { checkMatrixRoom } from './check.ts';
import { parseRoom } from './room.ts';
import { matrixSenderOf } from './sender.ts';

export const matrixDestination: DestinationModule = {
  type: 'matrix',
  cap: 5,
  noun: 'Matrix',
  requiresDiscordIdentity: false,
  parseMetadata(meta, where) {
    const room = parseRoom(meta.room);
    if (!room) throw new AppError('INVALID_DESTINATION', `${where}.metadata.room must be a Matrix room id (!abc:example.org) or alias (#room:example.org)`);
    return { room: room.value };
  },
  preflight: (deps, _accountId, metadata) => checkMatrixRoom(deps.config, metadata),
  createSender: matrixSenderOf,
  label(meta) {
    return `Matrix ${typeof meta.room === 'string' ? meta.room : ''}`.trim();
  },
};
