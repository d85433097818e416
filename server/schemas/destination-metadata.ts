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
  /** Announcement channels: publish (crosspost) each delivered message to the servers following the channel (docs/discord.md). */
  publish: Type.Optional(
    Type.Boolean({ description: 'Discord announcement channels only: also publish (crosspost) each delivered message to the servers following the channel.' }),
  ),
  /** Forum and media channels: the tags each new post carries (ids from the forum's available tags; docs/discord.md). */
  forum_tag_ids: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: 5,
      description: 'Discord forum and media channels only: the tags (ids of the forum\'s available tags) each new post opened by the reminder carries.',
    }),
  ),
  /** Discord channels: a "Remind me too" button under each delivery (docs/discord.md). */
  remind_me_too: Type.Optional(Type.Boolean({ description: 'Discord channels only: offer a "Remind me too" button under each delivery; pressing it subscribes the presser to the coming occurrences by DM.' })),
  /** Webhooks. */
  url: Type.Optional(Type.String({ maxLength: 4096 })),
  platform: Type.Optional(Type.String({ maxLength: 32 })),
  username: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  /** Generic webhooks: a body template (JSON or text) and extra headers (docs/notifications.md). */
  body_template: Type.Optional(Nullable(Type.String({ maxLength: 8000 }))),
  body_format: Type.Optional(Nullable(Type.String({ maxLength: 8 }))),
  headers: Type.Optional(Nullable(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 20 }))),
  /** Webhooks: the signing secret a test send issued before the save (docs/webhooks.md "Receivers"); answered once, by the save. */
  secret: Type.Optional(Type.String({ maxLength: 100 })),
  /** Email destinations. */
  address: Type.Optional(Type.String({ maxLength: 320 })),
  /** ntfy and Gotify (docs/notifications.md): the server's address, ntfy's topic, tags and priority (also Pushover's). */
  server: Type.Optional(Type.String({ maxLength: 2048 })),
  topic: Type.Optional(Type.String({ maxLength: 200 })),
  tags: Type.Optional(Type.Union([Type.String({ maxLength: 400 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })])),
  priority: Type.Optional(Nullable(Type.Union([Type.Number(), Type.String({ maxLength: 8 })]))),
  /** Credentials the user gives (ntfy access token, Gotify and Pushover application tokens): stored apart, never answered. */
  access_token: Type.Optional(Type.String({ maxLength: 400 })),
  app_token: Type.Optional(Type.String({ maxLength: 400 })),
  /** What the API shows of a stored credential (sent back unchanged by the dashboard). */
  token_hint: Type.Optional(Type.String({ maxLength: 16 })),
  /** Pushover. */
  user_key: Type.Optional(Type.String({ maxLength: 64 })),
  device: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  /** Matrix: a room id or alias as typed; the resolved `room_id` comes from the homeserver, never a client. */
  room: Type.Optional(Type.String({ maxLength: 300 })),
  /** Telegram: the id of a chat the account connected (GET /api/telegram/chats); its label comes from Telegram. */
  chat_id: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Number()])),
  /** Browser push: the browser's PushSubscription (its endpoint and keys), and its user agent, from which Chime names the browser and the system (`browser`, `os`). */
  endpoint: Type.Optional(Type.String({ maxLength: 2048 })),
  keys: Type.Optional(Type.Object({ p256dh: Type.Optional(Type.String({ maxLength: 200 })), auth: Type.Optional(Type.String({ maxLength: 100 })) })),
  user_agent: Type.Optional(Type.String({ maxLength: 1024 })),
  browser: Type.Optional(Type.String({ maxLength: 40 })),
  os: Type.Optional(Type.String({ maxLength: 40 })),
});

/** The metadata keys a client may send: an imported file's destinations keep these and no others. */
export const DESTINATION_METADATA_KEYS: readonly string[] = Object.keys(DestinationMetadataBody.properties);
