import type { PermissionInput, PermissionOverwrite } from './permissions.ts';

export interface FakeDiscordOptions {
  /** 0 / undefined = random free port. */
  port?: number;
  /** Application (= bot user) id. Random snowflake by default. */
  clientId?: string;
  /** Bot token. Generated (Discord-shaped) by default. */
  botToken?: string;
  clientSecret?: string;
  botUsername?: string;
  /** Gateway heartbeat interval sent in HELLO (ms). Default 41250. */
  heartbeatInterval?: number;
  /** OAuth access token lifetime in seconds. Default 604800 (7 days, like Discord). */
  accessTokenTtl?: number;
  /**
   * Exact redirect URIs accepted by /oauth2/authorize and the token endpoint.
   * Empty (default) = any redirect URI is accepted.
   */
  redirectUris?: string[];
  /**
   * How long after dispatching an interaction its first response (callback) is accepted; later ones
   * get 404/10062 Unknown interaction. Default 3000, like Discord.
   */
  interactionResponseWindowMs?: number;
}

export interface UserInput {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  avatar?: string | null;
  verified?: boolean;
  locale?: string;
  bot?: boolean;
  /** false = sending a DM to this user fails with 403 / 50007. Default true. */
  acceptsDms?: boolean;
}

export interface UserMessageInput {
  channelId: string;
  authorId: string;
  content?: string;
  attachments?: Array<{ filename: string; size?: number; contentType?: string }>;
}

export interface UserState {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  email: string | null;
  avatar: string | null;
  verified: boolean;
  locale: string;
  bot: boolean;
  acceptsDms: boolean;
}

export interface OverwriteInput {
  id: string;
  /** 0 / 'role' = role (or @everyone when id === guild id), 1 / 'member' = member. */
  type: PermissionOverwrite['type'];
  allow?: PermissionInput;
  deny?: PermissionInput;
}

export interface ChannelInput {
  id: string;
  name: string;
  /**
   * Discord channel type: 0 text (default), 2 voice, 4 category, 5 announcement, 13 stage, 15
   * forum, 16 media; 10, 11, 12 threads (announcement, public, private), whose `parent_id` is
   * their channel (a forum's posts are public threads).
   */
  type?: number;
  position?: number;
  parent_id?: string | null;
  topic?: string | null;
  nsfw?: boolean;
  permission_overwrites?: OverwriteInput[];
  /** Channel flags (a forum's REQUIRE_TAG is 1 << 4). */
  flags?: number;
  /** Forum and media channels: the tags posts may carry. */
  available_tags?: ForumTagInput[];
  /** Threads: archived/locked state, its creator, who was added to it, a forum post's tags. */
  thread_metadata?: { archived?: boolean; locked?: boolean; auto_archive_duration?: number; invitable?: boolean; /** ISO time it was archived (default: when added). */ archive_timestamp?: string };
  owner_id?: string;
  member_ids?: string[];
  applied_tags?: string[];
}

export interface ForumTagInput {
  id: string;
  name: string;
  moderated?: boolean;
  emoji_id?: string | null;
  emoji_name?: string | null;
}

export interface ThreadState {
  archived: boolean;
  locked: boolean;
  auto_archive_duration: number;
  archive_timestamp: string;
  invitable: boolean;
  owner_id: string;
  /** User ids added to (or who joined) the thread. */
  memberIds: Set<string>;
  applied_tags: string[];
}

export interface ChannelState {
  id: string;
  guildId: string;
  name: string;
  type: number;
  position: number;
  parent_id: string | null;
  topic: string | null;
  nsfw: boolean;
  permission_overwrites: Array<{ id: string; type: 0 | 1; allow: bigint; deny: bigint }>;
  last_message_id: string | null;
  flags: number;
  available_tags: ForumTagInput[];
  /** Set on threads (types 10, 11, 12) only. */
  thread: ThreadState | null;
}

export interface RoleInput {
  id: string;
  name: string;
  color?: number;
  hoist?: boolean;
  position?: number;
  /** Permission bits (decimal string, bigint or number). Default 0. */
  permissions?: PermissionInput;
  managed?: boolean;
  mentionable?: boolean;
  icon?: string | null;
  unicode_emoji?: string | null;
  /** Defaults to `{ bot_id: clientId }` for managed roles. */
  tags?: Record<string, string | null>;
}

export interface RoleState {
  id: string;
  name: string;
  color: number;
  hoist: boolean;
  position: number;
  permissions: bigint;
  managed: boolean;
  mentionable: boolean;
  icon: string | null;
  unicode_emoji: string | null;
  tags: Record<string, string | null> | undefined;
}

export interface MemberInput {
  userId: string;
  roles?: string[];
  nick?: string | null;
  joined_at?: string;
  communication_disabled_until?: string | null;
}

export interface MemberState {
  userId: string;
  roles: string[];
  nick: string | null;
  joined_at: string;
  communication_disabled_until: string | null;
}

export interface GuildInput {
  id: string;
  name: string;
  icon?: string | null;
  ownerId: string;
  channels?: ChannelInput[];
  roles?: RoleInput[];
  members?: MemberInput[];
  /** Whether the bot is a member of the guild. Default TRUE. */
  botMember?: boolean;
  /** Extra (non-managed) role ids to give the bot member; managed roles tagged with the bot are always added. */
  botRoles?: string[];
  preferred_locale?: string;
  features?: string[];
}

export interface GuildState {
  id: string;
  name: string;
  icon: string | null;
  ownerId: string;
  preferred_locale: string;
  features: string[];
  channels: ChannelState[];
  roles: RoleState[];
  members: Map<string, MemberState>;
  botInGuild: boolean;
  createdAt: string;
}

export interface DmChannelState {
  id: string;
  userId: string;
  last_message_id: string | null;
}

/** A group DM (channel type 3) between users: a bot can never be one of its recipients. */
export interface GroupDmState {
  id: string;
  name: string | null;
  ownerId: string;
  recipientIds: string[];
  last_message_id: string | null;
}

export interface RecordedRequest {
  method: string;
  /** Full path as requested, e.g. /api/v10/channels/1/messages */
  path: string;
  /** Path without the /api or /api/vN prefix, e.g. /channels/1/messages */
  route: string;
  query: Record<string, string>;
  /** Lower-cased request headers; `authorization` is reduced to its scheme ("Bot", "Bearer", "Basic"). */
  headers: Record<string, string>;
  /** Parsed JSON / form body (for multipart: the payload_json), or the raw text, or null. */
  body: any;
  files?: Array<{ field: string; filename: string; contentType: string; size: number }>;
  auth: 'bot' | 'bearer' | 'basic' | 'none' | 'invalid';
  /** Response status, filled in once handled. */
  status: number;
  /** false when no route matched (404 Not Found). */
  handled: boolean;
  injected: boolean;
  at: number;
}

export interface FailureSpec {
  method?: string;
  /** Tested against both the full path (/api/v10/...) and the route (/channels/...). */
  pathPattern: RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail. Default 1. */
  times?: number;
}

export interface StoredMessage {
  id: string;
  channel_id: string;
  guild_id: string | null;
  type: number;
  content: string;
  embeds: unknown[];
  components: unknown[];
  attachments: unknown[];
  flags: number;
  tts: boolean;
  nonce: string | number | null;
  allowed_mentions: unknown;
  message_reference: unknown;
  mentions: string[];
  mention_roles: string[];
  mention_everyone: boolean;
  timestamp: string;
  edited_timestamp: string | null;
  webhook_id: string | null;
  author: Record<string, unknown>;
  interaction_metadata: Record<string, unknown> | null;
  /** The raw request body that created it. */
  body: any;
  /** Raw bodies of subsequent edits, in order. */
  edits: any[];
  deleted: boolean;
  /** Set for interaction responses / follow-ups. */
  interactionId: string | null;
}

export type InteractionResponseKind =
  | 'callback'
  | 'editOriginal'
  | 'deleteOriginal'
  | 'followup'
  | 'editFollowup'
  | 'deleteFollowup';

export interface InteractionResponseRecord {
  kind: InteractionResponseKind;
  /** Interaction callback type (4 reply, 5 defer, 6 deferred update, 7 update, 8 autocomplete, 9 modal). */
  type: number | null;
  /** `data` of a callback, or the whole body of webhook edits / follow-ups. */
  data: any;
  /** Raw request body. */
  body: any;
  messageId: string | null;
  withResponse: boolean;
  at: number;
}

export interface InteractionState {
  id: string;
  token: string;
  payload: Record<string, any>;
  /** When it was dispatched (ms): the first response must come within the response window. */
  dispatchedAt: number;
  acknowledged: boolean;
  responses: InteractionResponseRecord[];
  original: StoredMessage | null;
  followups: StoredMessage[];
  /** The modal the app showed in answer (callback type 9), with the component ids Discord assigned. */
  modal?: { custom_id: string; title: string; components: any[] };
}

export interface DispatchedInteraction {
  id: string;
  token: string;
  payload: Record<string, any>;
}

export interface CommandOptionInput {
  name: string;
  /** Option type; inferred from the registered command or the value when omitted. */
  type?: number;
  value?: string | number | boolean;
  options?: CommandOptionInput[];
  focused?: boolean;
}

export interface InteractionContextInput {
  userId: string;
  guildId?: string;
  /** Required in guilds; in DMs defaults to the user's DM channel. */
  channelId?: string;
  locale?: string;
  guildLocale?: string;
  /** Override the computed app_permissions. */
  appPermissions?: bigint | string;
}

export interface SlashCommandInput extends InteractionContextInput {
  name: string;
  options?: CommandOptionInput[];
  commandId?: string;
  /** 1 chat input (default), 2 user context menu, 3 message context menu. */
  commandType?: number;
  targetId?: string;
}

export interface AutocompleteInput extends SlashCommandInput {
  /** Name of the focused option (alternative to `focused: true` on the option). */
  focused?: string;
}

export interface ComponentInput extends InteractionContextInput {
  customId: string;
  messageId?: string;
  /** Override / provide the message the component is attached to. */
  message?: Record<string, any>;
  /** 2 button (default), 3 string select, 5 user select, 6 role select, 7 mentionable, 8 channel select. */
  componentType?: number;
  values?: string[];
}

export interface ModalSubmitInput extends InteractionContextInput {
  customId: string;
  fields: Record<string, string>;
  messageId?: string;
}

export interface RegisteredCommand {
  id: string;
  application_id: string;
  version: string;
  type: number;
  name: string;
  description: string;
  guild_id?: string;
  [key: string]: unknown;
}

export interface WebhookState {
  id: string;
  token: string;
  channelId: string;
  name: string;
  avatar: string | null;
}
