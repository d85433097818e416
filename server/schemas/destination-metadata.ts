import { Type } from '@sinclair/typebox';
import { Nullable } from './common.ts';

/**
 * What a client may say about a destination, for every type (each module's `parseMetadata` then
 * takes what its type uses). Display names (guild_name, channel_name...) are not here: they come
 * from Discord, never from a client or a file.
 */
export const DestinationMetadataBody = Type.Object({
  /** Discord channels. */
  guild_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Number()])),
  channel_id: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Number()])),
  mention_role_id: Type.Optional(Nullable(Type.Union([Type.String({ maxLength: 64 }), Type.Number()]))),
  /** Webhooks. */
  url: Type.Optional(Type.String({ maxLength: 4096 })),
  platform: Type.Optional(Type.String({ maxLength: 32 })),
  username: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  /** Email destinations. */
  address: Type.Optional(Type.String({ maxLength: 320 })),
});

/** The metadata keys a client may send: an imported file's destinations keep these and no others. */
export const DESTINATION_METADATA_KEYS: readonly string[] = Object.keys(DestinationMetadataBody.properties);
