import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGateway } from './gateway.ts';
import {
  DEFAULT_EVERYONE_PERMISSIONS,
  PermissionFlags,
  computeBasePermissions,
  computeMemberPermissions,
  hasPermission,
  toPermissionBits,
} from './permissions.ts';
import type {
  AutocompleteInput,
  ChannelInput,
  ChannelState,
  CommandOptionInput,
  ComponentInput,
  DispatchedInteraction,
  DmChannelState,
  GroupDmState,
  FailureSpec,
  FakeDiscordOptions,
  GuildInput,
  GuildState,
  InteractionContextInput,
  InteractionResponseKind,
  InteractionResponseRecord,
  InteractionState,
  MemberInput,
  MemberState,
  ModalSubmitInput,
  RecordedRequest,
  RegisteredCommand,
  RoleInput,
  RoleState,
  SlashCommandInput,
  StoredMessage,
  UserInput,
  UserMessageInput,
  UserState,
  WebhookState,
} from './types.ts';
import { makeBotToken, randomAlnum, randomHex, snowflake, waitFor } from './util.ts';

// ---------------------------------------------------------------------------------------------
// small HTTP helpers

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Non-JSON body (redirects, html). */
  text?: string;
}

const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });
const noContent = (): Reply => ({ status: 204 });
const apiError = (status: number, code: number, message: string, extra?: Record<string, unknown>): Reply =>
  json(status, { message, code, ...extra });

const UNAUTHORIZED = (): Reply => apiError(401, 0, '401: Unauthorized');
const NOT_FOUND = (): Reply => apiError(404, 0, '404: Not Found');
const MISSING_ACCESS = (): Reply => apiError(403, 50001, 'Missing Access');
const MISSING_PERMISSIONS = (): Reply => apiError(403, 50013, 'Missing Permissions');
const UNKNOWN_CHANNEL = (): Reply => apiError(404, 10003, 'Unknown Channel');
const UNKNOWN_GUILD = (): Reply => apiError(404, 10004, 'Unknown Guild');
const UNKNOWN_MESSAGE = (): Reply => apiError(404, 10008, 'Unknown Message');
const UNKNOWN_USER = (): Reply => apiError(404, 10013, 'Unknown User');
const UNKNOWN_MEMBER = (): Reply => apiError(404, 10007, 'Unknown Member');
const UNKNOWN_WEBHOOK = (): Reply => apiError(404, 10015, 'Unknown Webhook');
const UNKNOWN_INTERACTION = (): Reply => apiError(404, 10062, 'Unknown interaction');
const UNKNOWN_COMMAND = (): Reply => apiError(404, 10063, 'Unknown application command');

const formError = (errors: Record<string, unknown>): Reply =>
  apiError(400, 50035, 'Invalid Form Body', { errors });
const fieldError = (code: string, message: string) => ({ _errors: [{ code, message }] });

/**
 * A modal (callback type 9) as Discord checks it: title 1-45, custom_id 1-100, 1-5 top-level
 * components, each a Label (18: label max 45, description max 100) around a text input (4) or a
 * string select (3), a Text Display (10), or a legacy Action Row (1) holding one text input with its
 * own label. Text input: style 1/2, lengths 0-4000; string select: 1-25 options, never disabled.
 * Returns the form errors, or null.
 */
function validateModal(data: any): Record<string, unknown> | null {
  const e: Record<string, unknown> = {};
  if (data.title.length < 1 || data.title.length > 45) e.title = fieldError('BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 45 in length.');
  if (data.custom_id.length < 1 || data.custom_id.length > 100) e.custom_id = fieldError('BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  if (data.components.length < 1 || data.components.length > 5) e.components = fieldError('BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  const bad = (code: string) => fieldError(code, 'Invalid Form Body');
  const child = (c: any, legacyLabel: boolean): Record<string, unknown> | null => {
    if (typeof c?.custom_id !== 'string' || c.custom_id.length < 1 || c.custom_id.length > 100) return { custom_id: bad('BASE_TYPE_BAD_LENGTH') };
    if (c.type === 4) {
      if (c.style !== 1 && c.style !== 2) return { style: bad('BASE_TYPE_CHOICES') };
      if (legacyLabel && (typeof c.label !== 'string' || c.label.length < 1 || c.label.length > 45)) return { label: bad('BASE_TYPE_BAD_LENGTH') };
      for (const k of ['min_length', 'max_length']) if (c[k] !== undefined && (!Number.isInteger(c[k]) || c[k] < (k === 'max_length' ? 1 : 0) || c[k] > 4000)) return { [k]: bad('NUMBER_TYPE_MAX') };
      if (typeof c.value === 'string' && c.value.length > 4000) return { value: bad('BASE_TYPE_MAX_LENGTH') };
      if (typeof c.placeholder === 'string' && c.placeholder.length > 100) return { placeholder: bad('BASE_TYPE_MAX_LENGTH') };
      return null;
    }
    if (c.type === 3 && !legacyLabel) {
      if (!Array.isArray(c.options) || c.options.length < 1 || c.options.length > 25) return { options: bad('BASE_TYPE_BAD_LENGTH') };
      if (c.disabled) return { disabled: bad('COMPONENT_DISABLED_IN_MODAL') };
      if (c.options.some((o: any) => typeof o?.label !== 'string' || typeof o?.value !== 'string' || o.label.length > 100 || o.value.length > 100)) return { options: bad('BASE_TYPE_MAX_LENGTH') };
      return null;
    }
    return { type: bad('UNION_TYPE_CHOICES') };
  };
  const rows: Record<string, unknown> = {};
  data.components.forEach((row: any, i: number) => {
    let err: Record<string, unknown> | null = null;
    if (row?.type === 18) {
      if (typeof row.label !== 'string' || row.label.length < 1 || row.label.length > 45) err = { label: bad('BASE_TYPE_BAD_LENGTH') };
      else if (typeof row.description === 'string' && row.description.length > 100) err = { description: bad('BASE_TYPE_MAX_LENGTH') };
      else {
        const c = child(row.component, false);
        if (c) err = { component: c };
      }
    } else if (row?.type === 1) {
      if (!Array.isArray(row.components) || row.components.length !== 1) err = { components: bad('BASE_TYPE_BAD_LENGTH') };
      else {
        const c = child(row.components[0], true);
        if (c) err = { components: { '0': c } };
      }
    } else if (row?.type === 10) {
      if (typeof row.content !== 'string' || row.content.length < 1 || row.content.length > 4000) err = { content: bad('BASE_TYPE_BAD_LENGTH') };
    } else err = { type: bad('UNION_TYPE_CHOICES') };
    if (err) rows[String(i)] = err;
  });
  if (Object.keys(rows).length && !e.components) e.components = rows;
  return Object.keys(e).length ? e : null;
}

/** Fills in the component ids Discord assigns when the app leaves them out: 1, 2, ... in tree order, skipping used ones. */
function numberComponents(data: any): any {
  const copy = structuredClone(data);
  const used = new Set<number>();
  const walk = (c: any, f: (c: any) => void) => {
    f(c);
    if (c.component) walk(c.component, f);
    if (Array.isArray(c.components)) for (const x of c.components) walk(x, f);
  };
  for (const row of copy.components) walk(row, (c) => Number.isInteger(c.id) && used.add(c.id));
  let next = 1;
  for (const row of copy.components) {
    walk(row, (c) => {
      if (Number.isInteger(c.id)) return;
      while (used.has(next)) next++;
      c.id = next;
      used.add(next);
    });
  }
  return copy;
}

const oauthError = (status: number, error: string, description?: string): Reply =>
  json(status, description ? { error, error_description: description } : { error });

type AuthKind = RecordedRequest['auth'];

interface Ctx {
  method: string;
  route: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  files: NonNullable<RecordedRequest['files']>;
  auth: AuthKind;
  /** OAuth user id for Bearer requests. */
  bearer: { userId: string; scopes: string[]; token: string } | null;
  basic: { username: string; password: string } | null;
  headers: IncomingMessage['headers'];
}

type Handler = (ctx: Ctx) => Reply | Promise<Reply>;
type RouteAuth = 'bot' | 'bearer' | 'botOrBearer' | 'none';

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  auth: RouteAuth;
  handler: Handler;
}

function compile(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const src = path
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        keys.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${src}/?$`), keys };
}

// ---------------------------------------------------------------------------------------------

interface OAuthCode {
  userId: string;
  scopes: string[];
  redirectUri: string | null;
  used: boolean;
  expiresAt: number;
}

interface AccessToken {
  userId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

interface RefreshToken {
  userId: string;
  scopes: string[];
  used: boolean;
}

interface ActiveFailure extends FailureSpec {
  remaining: number;
}

const TEXT_TYPES = new Set([0, 1, 2, 3, 5, 10, 11, 12, 13]);
/** Announcement, public and private threads: listed apart from the guild's channels. */
const THREAD_TYPES = new Set([10, 11, 12]);
/** Forum and media channels: messages go in their posts (threads), never in the channel itself. */
const FORUM_TYPES = new Set([15, 16]);
/** Channel flag: a forum whose new posts must carry a tag. */
const REQUIRE_TAG = 1 << 4;
const isThread = (c: ChannelState): boolean => THREAD_TYPES.has(c.type);
const DM_APP_PERMISSIONS =
  PermissionFlags.AddReactions |
  PermissionFlags.ViewChannel |
  PermissionFlags.SendMessages |
  PermissionFlags.EmbedLinks |
  PermissionFlags.AttachFiles |
  PermissionFlags.ReadMessageHistory |
  PermissionFlags.UseExternalEmojis |
  PermissionFlags.UseApplicationCommands |
  PermissionFlags.UseExternalStickers |
  PermissionFlags.SendVoiceMessages |
  PermissionFlags.SendPolls |
  PermissionFlags.UseExternalApps;

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

export class FakeDiscord {
  /** http origin, e.g. http://127.0.0.1:3999 */
  url = '';
  /** `${url}/api/v10` */
  apiUrl = '';
  /** ws origin returned by /gateway/bot */
  gatewayUrl = '';
  /** The shard count /gateway/bot recommends (a bot in more than 2,500 servers gets more than 1). */
  recommendedShards = 1;
  /** session_start_limit.max_concurrency of /gateway/bot: IDENTIFYs allowed per 5 s (big bots get 16 or more). */
  maxConcurrency = 1;
  port = 0;
  readonly clientId: string;
  readonly botToken: string;
  readonly clientSecret: string;

  /** Every HTTP request, in arrival order. */
  readonly requests: RecordedRequest[] = [];

  readonly users = new Map<string, UserState>();
  readonly guilds = new Map<string, GuildState>();
  readonly dmChannels = new Map<string, DmChannelState>(); // by user id
  readonly groupDms = new Map<string, GroupDmState>(); // by channel id
  readonly messages = new Map<string, StoredMessage[]>(); // by channel id
  readonly interactions = new Map<string, InteractionState>();
  readonly webhooks = new Map<string, WebhookState>();
  readonly globalCommands: RegisteredCommand[] = [];
  readonly guildCommands = new Map<string, RegisteredCommand[]>();

  readonly gateway: FakeGateway;

  private readonly server: http.Server;
  private readonly routes: Route[] = [];
  private readonly failures: ActiveFailure[] = [];
  private readonly holds: Array<{ method?: string; pathPattern: RegExp; reached: () => void; released: Promise<void> }> = [];
  private readonly codes = new Map<string, OAuthCode>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, RefreshToken>();
  /** Channel id -> when its messages were published (crossposted), for Discord's 10 per hour. */
  private readonly crosspostTimes = new Map<string, number[]>();
  private authorizingUserId: string | null = null;
  private redirectUris: string[];
  private readonly accessTokenTtl: number;
  private readonly heartbeatInterval: number;

  constructor(private readonly options: FakeDiscordOptions = {}) {
    this.clientId = options.clientId ?? snowflake();
    this.botToken = options.botToken ?? makeBotToken(this.clientId);
    this.clientSecret = options.clientSecret ?? randomAlnum(32);
    this.accessTokenTtl = options.accessTokenTtl ?? 604800;
    this.heartbeatInterval = options.heartbeatInterval ?? 41250;
    this.redirectUris = [...(options.redirectUris ?? [])];

    this.users.set(this.clientId, {
      id: this.clientId,
      username: options.botUsername ?? 'Chime',
      discriminator: '4821',
      global_name: null,
      email: null,
      avatar: null,
      verified: true,
      locale: 'en-US',
      bot: true,
      acceptsDms: false,
    });

    this.gateway = new FakeGateway({
      botToken: this.botToken,
      heartbeatInterval: this.heartbeatInterval,
      gatewayUrl: () => this.gatewayUrl,
      readyPayload: () => ({
        v: 10,
        user: { ...this.publicUser(this.botUser), verified: true, mfa_enabled: true, email: null, flags: 0 },
        user_settings: {},
        private_channels: [],
        presences: [],
        relationships: [],
        guild_join_requests: [],
        geo_ordered_rtc_regions: ['us-east', 'us-central'],
        auth: {},
        application: { id: this.clientId, flags: 8953856 },
        _trace: ['["fake-discord-gateway",{"micros":0}]'],
      }),
      guildCreatePayloads: () => [...this.guilds.values()].filter((g) => g.botInGuild).map((g) => this.guildCreatePayload(g)),
      memberChunk: (guildId, userIds, query, limit) => this.memberChunk(guildId, userIds, query, limit),
    });

    this.registerRoutes();
    this.server = http.createServer((req, res) => {
      this.handleHttp(req, res).catch((err: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `500: Internal Server Error (fake: ${String(err)})`, code: 0 }));
        }
      });
    });
    this.server.on('upgrade', (req, socket, head) => this.gateway.handleUpgrade(req, socket, head));
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    this.apiUrl = `${this.url}/api/v10`;
    this.gatewayUrl = `ws://127.0.0.1:${this.port}`;
    return this;
  }

  async close(): Promise<void> {
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ===========================================================================================
  // state setup

  get botUser(): UserState {
    return this.users.get(this.clientId)!;
  }

  addUser(input: UserInput): UserState {
    const user: UserState = {
      id: input.id,
      username: input.username,
      discriminator: '0',
      global_name: input.global_name ?? null,
      email: input.email ?? null,
      avatar: input.avatar ?? null,
      verified: input.verified ?? true,
      locale: input.locale ?? 'en-US',
      bot: input.bot ?? false,
      acceptsDms: input.acceptsDms ?? true,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** false = DMs to this user fail with 403 / 50007 "Cannot send messages to this user". */
  setAcceptsDms(userId: string, accepts: boolean): void {
    this.requireUser(userId).acceptsDms = accepts;
  }

  /**
   * A group DM (type 3) between users. As on Discord a bot cannot be in one: its messages and
   * reads there are 403/50001; only a user-installed app's commands reach it (context 2,
   * PRIVATE_CHANNEL, `authorizing_integration_owners` naming the user's install).
   */
  addGroupDm(input: { id: string; ownerId: string; recipientIds: string[]; name?: string | null }): GroupDmState {
    const recipients = [...new Set([input.ownerId, ...input.recipientIds])];
    for (const id of recipients) this.requireUser(id);
    if (recipients.includes(this.clientId)) throw new Error('fake-discord: a bot cannot be in a group DM');
    const group: GroupDmState = { id: input.id, name: input.name ?? null, ownerId: input.ownerId, recipientIds: recipients, last_message_id: null };
    this.groupDms.set(group.id, group);
    return group;
  }

  /**
   * A message written by a user (not through the API): what a message command targets. In a guild
   * channel, or in a DM channel (`dmChannelIdOf`). Mentions are resolved as Discord does for a
   * user's message: users always, a role when it is mentionable or the author may mention
   * everyone, @everyone/@here only with that permission.
   */
  postUserMessage(input: UserMessageInput): StoredMessage {
    const author = this.requireUser(input.authorId);
    const found = this.findGuildChannel(input.channelId);
    const group = this.groupDms.get(input.channelId);
    if (group && !group.recipientIds.includes(author.id)) throw new Error(`fake-discord: ${author.id} is not in the group DM ${group.id}`);
    if (!found && !group && !this.findDmChannel(input.channelId)) throw new Error(`fake-discord: unknown channel ${input.channelId}`);
    const guild = found?.guild ?? null;
    const content = input.content ?? '';
    const mayMentionAll = guild && guild.members.has(author.id) ? hasPermission(this.computePermissions(guild.id, author.id, input.channelId), PermissionFlags.MentionEveryone) : false;
    const roleIds = [...content.matchAll(/<@&(\d{17,20})>/g)].map((m) => m[1]!);
    const msg: StoredMessage = {
      ...this.createMessage(input.channelId, guild, { content }, []),
      author: this.publicUser(author),
      mentions: [...new Set([...content.matchAll(/<@!?(\d{17,20})>/g)].map((m) => m[1]!).filter((id) => this.users.has(id)))],
      mention_roles: guild ? [...new Set(roleIds.filter((id) => guild.roles.some((r) => r.id === id && (r.mentionable || mayMentionAll))))] : [],
      mention_everyone: /@(everyone|here)/.test(content) && mayMentionAll,
      attachments: (input.attachments ?? []).map((a) => {
        const id = snowflake();
        const url = `${this.url}/attachments/${input.channelId}/${id}/${encodeURIComponent(a.filename)}`;
        return { id, filename: a.filename, size: a.size ?? 1024, url, proxy_url: url, content_type: a.contentType ?? 'application/octet-stream' };
      }),
    };
    this.storeChannelMessage(msg);
    return msg;
  }

  addGuild(input: GuildInput): GuildState {
    const guild: GuildState = {
      id: input.id,
      name: input.name,
      icon: input.icon ?? null,
      ownerId: input.ownerId,
      preferred_locale: input.preferred_locale ?? 'en-US',
      features: input.features ?? [],
      channels: [],
      roles: [],
      members: new Map(),
      botInGuild: false,
      createdAt: new Date().toISOString(),
    };
    const roles = input.roles ?? [];
    if (!roles.some((r) => r.id === guild.id)) {
      guild.roles.push(this.makeRole({ id: guild.id, name: '@everyone', permissions: DEFAULT_EVERYONE_PERMISSIONS, position: 0 }, 0));
    }
    roles.forEach((r, i) => guild.roles.push(this.makeRole(r, r.id === guild.id ? 0 : i + 1)));
    (input.channels ?? []).forEach((c, i) => guild.channels.push(this.makeChannel(guild.id, c, i)));
    for (const m of input.members ?? []) this.putMember(guild, m);
    if (!guild.members.has(guild.ownerId)) this.putMember(guild, { userId: guild.ownerId });
    this.guilds.set(guild.id, guild);
    if (input.botMember ?? true) this.putBotMember(guild, input.botRoles ?? []);
    return guild;
  }

  /** Adds the bot to a guild (dispatches GUILD_CREATE). `permissions` creates a managed bot role. */
  addBotToGuild(guildId: string, opts: { permissions?: bigint | string; roles?: string[] } = {}): void {
    const guild = this.requireGuild(guildId);
    if (guild.botInGuild) return;
    if (opts.permissions !== undefined && !guild.roles.some((r) => r.managed && r.tags?.bot_id === this.clientId)) {
      guild.roles.push(
        this.makeRole({ id: snowflake(), name: this.botUser.username, managed: true, permissions: opts.permissions }, guild.roles.length),
      );
    }
    this.putBotMember(guild, opts.roles ?? []);
    this.gateway.dispatch('GUILD_CREATE', this.guildCreatePayload(guild));
  }

  /** Removes the bot from a guild (dispatches GUILD_DELETE). */
  removeBotFromGuild(guildId: string): void {
    const guild = this.requireGuild(guildId);
    if (!guild.botInGuild) return;
    guild.botInGuild = false;
    guild.members.delete(this.clientId);
    guild.roles = guild.roles.filter((r) => !(r.managed && r.tags?.bot_id === this.clientId));
    for (const m of guild.members.values()) m.roles = m.roles.filter((id) => guild.roles.some((r) => r.id === id));
    this.gateway.dispatch('GUILD_DELETE', { id: guild.id });
  }

  addMember(guildId: string, input: MemberInput): MemberState {
    const guild = this.requireGuild(guildId);
    const member = this.putMember(guild, input);
    if (guild.botInGuild) {
      this.gateway.dispatch('GUILD_MEMBER_ADD', { ...this.memberJson(guild, member), guild_id: guild.id });
    }
    return member;
  }

  updateMember(guildId: string, userId: string, patch: Partial<Omit<MemberInput, 'userId'>>): MemberState {
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`fake-discord: ${userId} is not a member of ${guildId}`);
    if (patch.roles) member.roles = [...patch.roles];
    if (patch.nick !== undefined) member.nick = patch.nick;
    if (patch.communication_disabled_until !== undefined) member.communication_disabled_until = patch.communication_disabled_until;
    if (guild.botInGuild) this.gateway.dispatch('GUILD_MEMBER_UPDATE', { ...this.memberJson(guild, member), guild_id: guild.id });
    return member;
  }

  removeMember(guildId: string, userId: string): void {
    const guild = this.requireGuild(guildId);
    if (!guild.members.delete(userId)) return;
    if (guild.botInGuild) this.gateway.dispatch('GUILD_MEMBER_REMOVE', { guild_id: guild.id, user: this.publicUser(this.requireUser(userId)) });
  }

  addChannel(guildId: string, input: ChannelInput): ChannelState {
    const guild = this.requireGuild(guildId);
    const channel = this.makeChannel(guild.id, input, guild.channels.length);
    guild.channels.push(channel);
    if (isThread(channel)) {
      if (guild.botInGuild && this.botSeesThread(guild, channel)) this.gateway.dispatch('THREAD_CREATE', { ...this.channelJson(channel, true), newly_created: true });
    } else if (guild.botInGuild) this.gateway.dispatch('CHANNEL_CREATE', this.channelJson(channel, true));
    return channel;
  }

  updateChannel(channelId: string, patch: Partial<Omit<ChannelInput, 'id'>>): ChannelState {
    const found = this.findGuildChannel(channelId);
    if (!found) throw new Error(`fake-discord: unknown guild channel ${channelId}`);
    const { guild, channel } = found;
    const merged = this.makeChannel(guild.id, { ...this.channelInputOf(channel), ...patch, id: channel.id }, channel.position);
    Object.assign(channel, merged, { last_message_id: channel.last_message_id });
    if (guild.botInGuild && (!isThread(channel) || this.botSeesThread(guild, channel))) this.gateway.dispatch(isThread(channel) ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', this.channelJson(channel, true));
    return channel;
  }

  removeChannel(channelId: string): void {
    const found = this.findGuildChannel(channelId);
    if (!found) return;
    const visible = !isThread(found.channel) || this.botSeesThread(found.guild, found.channel);
    found.guild.channels = found.guild.channels.filter((c) => c.id !== channelId);
    if (!found.guild.botInGuild || !visible) return;
    // A deleted thread is announced by its ids (Discord's THREAD_DELETE).
    if (isThread(found.channel)) this.gateway.dispatch('THREAD_DELETE', { id: channelId, guild_id: found.guild.id, parent_id: found.channel.parent_id, type: found.channel.type });
    else this.gateway.dispatch('CHANNEL_DELETE', this.channelJson(found.channel, true));
  }

  addRole(guildId: string, input: RoleInput): RoleState {
    const guild = this.requireGuild(guildId);
    const role = this.makeRole(input, guild.roles.length);
    guild.roles.push(role);
    if (guild.botInGuild) this.gateway.dispatch('GUILD_ROLE_CREATE', { guild_id: guild.id, role: this.roleJson(role) });
    return role;
  }

  updateRole(guildId: string, roleId: string, patch: Partial<Omit<RoleInput, 'id'>>): RoleState {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((r) => r.id === roleId);
    if (!role) throw new Error(`fake-discord: unknown role ${roleId}`);
    Object.assign(role, this.makeRole({ ...this.roleInputOf(role), ...patch, id: roleId }, role.position));
    if (guild.botInGuild) this.gateway.dispatch('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: this.roleJson(role) });
    return role;
  }

  removeRole(guildId: string, roleId: string): void {
    const guild = this.requireGuild(guildId);
    guild.roles = guild.roles.filter((r) => r.id !== roleId);
    for (const m of guild.members.values()) m.roles = m.roles.filter((id) => id !== roleId);
    if (guild.botInGuild) this.gateway.dispatch('GUILD_ROLE_DELETE', { guild_id: guild.id, role_id: roleId });
  }

  /** Creates an incoming webhook in a channel; returns its execute URL (`${apiUrl}/webhooks/{id}/{token}`). */
  createWebhook(channelId: string, opts: { name?: string; avatar?: string | null } = {}): WebhookState & { url: string } {
    if (!this.findGuildChannel(channelId)) throw new Error(`fake-discord: unknown guild channel ${channelId}`);
    const hook: WebhookState = { id: snowflake(), token: randomAlnum(68), channelId, name: opts.name ?? 'Captain Hook', avatar: opts.avatar ?? null };
    this.webhooks.set(hook.id, hook);
    return { ...hook, url: `${this.apiUrl}/webhooks/${hook.id}/${hook.token}` };
  }

  // ===========================================================================================
  // OAuth setup helpers

  /** Simulates the user clicking "Authorize": returns a one-time code for the token endpoint. */
  authorizeCode(userId: string, opts: { scopes?: string[]; redirectUri?: string } = {}): string {
    this.requireUser(userId);
    const code = randomAlnum(30);
    this.codes.set(code, {
      userId,
      scopes: opts.scopes ?? ['identify', 'email', 'guilds'],
      redirectUri: opts.redirectUri ?? null,
      used: false,
      expiresAt: Date.now() + 10 * 60_000,
    });
    return code;
  }

  /** The user the browser is "logged in" as at /oauth2/authorize; null = the user clicks Cancel (access_denied). */
  setAuthorizingUser(userId: string | null): void {
    if (userId !== null) this.requireUser(userId);
    this.authorizingUserId = userId;
  }

  /** Restrict accepted redirect URIs (exact match). Empty = accept any. */
  setRedirectUris(uris: string[]): void {
    this.redirectUris = [...uris];
  }

  /** Makes an access token expired (API calls with it get 401); the refresh token keeps working. */
  expireAccessToken(token: string): void {
    const t = this.accessTokens.get(token);
    if (!t) throw new Error('fake-discord: unknown access token');
    t.expiresAt = 0;
  }

  /** Issues tokens directly (skips the code exchange). */
  issueTokens(userId: string, scopes: string[] = ['identify', 'email', 'guilds']): {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    scope: string;
    token_type: 'Bearer';
  } {
    this.requireUser(userId);
    const access = randomAlnum(30);
    const refresh = randomAlnum(30);
    this.accessTokens.set(access, { userId, scopes, expiresAt: Date.now() + this.accessTokenTtl * 1000, revoked: false });
    this.refreshTokens.set(refresh, { userId, scopes, used: false });
    return { access_token: access, refresh_token: refresh, expires_in: this.accessTokenTtl, scope: scopes.join(' '), token_type: 'Bearer' };
  }

  // ===========================================================================================
  // failure injection

  /** The next `times` (default 1) requests matching fail with the given response. */
  failNext(spec: FailureSpec): void {
    this.failures.push({ ...spec, remaining: spec.times ?? 1 });
  }

  /** failNext with a realistic 429 (Retry-After + X-RateLimit-* headers, JSON body). */
  rateLimitNext(spec: { method?: string; pathPattern: RegExp; retryAfter?: number; global?: boolean; times?: number }): void {
    const retryAfter = spec.retryAfter ?? 0.2;
    const headers: Record<string, string> = {
      'retry-after': String(retryAfter),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String((Date.now() + retryAfter * 1000) / 1000),
      'x-ratelimit-reset-after': String(retryAfter),
      'x-ratelimit-bucket': randomHex(32),
      'x-ratelimit-scope': spec.global ? 'global' : 'user',
    };
    if (spec.global) headers['x-ratelimit-global'] = 'true';
    this.failNext({
      method: spec.method,
      pathPattern: spec.pathPattern,
      status: 429,
      headers,
      body: { message: 'You are being rate limited.', retry_after: retryAfter, global: spec.global ?? false },
      times: spec.times,
    });
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /**
   * The next request matching waits, unanswered, until release(): a slow Discord at the moment a
   * test chooses. `reached` resolves when that request has arrived.
   */
  holdNext(spec: { method?: string; pathPattern: RegExp }): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    this.holds.push({ ...spec, reached, released });
    return { reached: arrived, release };
  }

  // ===========================================================================================
  // inspection

  /** Messages posted in a channel via the bot REST API or webhooks (not interaction responses). */
  messagesIn(channelId: string): StoredMessage[] {
    return (this.messages.get(channelId) ?? []).filter((m) => !m.deleted);
  }

  dmChannelIdOf(userId: string): string | null {
    return this.dmChannels.get(userId)?.id ?? null;
  }

  dmMessagesTo(userId: string): StoredMessage[] {
    const dm = this.dmChannels.get(userId);
    return dm ? this.messagesIn(dm.id) : [];
  }

  interactionResponses(interactionId: string): InteractionResponseRecord[] {
    return this.interactions.get(interactionId)?.responses ?? [];
  }

  interaction(interactionId: string): InteractionState | undefined {
    return this.interactions.get(interactionId);
  }

  /** Global commands, or a guild's commands when guildId is given. */
  registeredCommands(guildId?: string): RegisteredCommand[] {
    return guildId ? (this.guildCommands.get(guildId) ?? []) : this.globalCommands;
  }

  /** Requests whose route matches (and optionally method). */
  requestsTo(pattern: RegExp, method?: string): RecordedRequest[] {
    return this.requests.filter((r) => (!method || r.method === method.toUpperCase()) && (pattern.test(r.route) || pattern.test(r.path)));
  }

  /** Requests that matched no route (answered 404 Not Found). */
  unhandledRequests(): RecordedRequest[] {
    return this.requests.filter((r) => !r.handled);
  }

  waitFor<T>(predicate: () => T | Promise<T>, timeoutMs = 2000, description?: string): Promise<NonNullable<T>> {
    return waitFor(predicate, timeoutMs, description);
  }

  /** Waits until the interaction has at least `count` responses (optionally of a kind) and returns the last one. */
  async waitForInteractionResponse(
    interactionId: string,
    opts: { kind?: InteractionResponseKind; count?: number; timeoutMs?: number } = {},
  ): Promise<InteractionResponseRecord> {
    const count = opts.count ?? 1;
    const list = await waitFor(
      () => {
        const rs = this.interactionResponses(interactionId).filter((r) => !opts.kind || r.kind === opts.kind);
        return rs.length >= count ? rs : null;
      },
      opts.timeoutMs ?? 2000,
      `interaction ${interactionId} response${opts.kind ? ` (${opts.kind})` : ''}`,
    );
    return list[count - 1]!;
  }

  /** Permissions of a member (guild level, or in a channel with overwrites applied). */
  computePermissions(guildId: string, userId: string, channelId?: string): bigint {
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`fake-discord: ${userId} is not a member of guild ${guildId}`);
    const ctx = {
      guildId: guild.id,
      ownerId: guild.ownerId,
      userId,
      roles: guild.roles,
      memberRoleIds: member.roles,
      communicationDisabledUntil: member.communication_disabled_until,
    };
    if (!channelId) return computeBasePermissions(ctx);
    let channel = guild.channels.find((c) => c.id === channelId);
    if (!channel) throw new Error(`fake-discord: channel ${channelId} is not in guild ${guildId}`);
    // A thread has no overwrites of its own: its parent's apply.
    if (isThread(channel)) channel = guild.channels.find((c) => c.id === channel!.parent_id) ?? channel;
    return computeMemberPermissions(ctx, channel.permission_overwrites);
  }

  // ===========================================================================================
  // gateway helpers

  /** Gateway sessions started (IDENTIFYs accepted) since the fake started. */
  get gatewaySessionsStarted(): number {
    return this.gateway.identified;
  }

  /** Number of identified gateway connections. */
  get gatewayConnections(): number {
    return this.gateway.readyConnections;
  }

  /** Raw dispatch to all connected sessions; returns how many sessions got it. */
  dispatch(t: string, d: unknown): number {
    return this.gateway.dispatch(t, d);
  }

  /** Fills in defaults, registers the interaction and sends INTERACTION_CREATE. */
  dispatchInteraction(payload: Record<string, any>): DispatchedInteraction {
    const full: Record<string, any> = {
      id: snowflake(),
      application_id: this.clientId,
      token: `aW50ZXJhY3Rpb246${randomAlnum(140)}`,
      version: 1,
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: {},
      attachment_size_limit: 10 * 1024 * 1024,
      app_permissions: DM_APP_PERMISSIONS.toString(),
      ...payload,
    };
    if (full.channel && !full.channel_id) full.channel_id = full.channel.id;
    if (full.context === undefined) full.context = full.guild_id ? 0 : 1;
    if (!full.user && !full.member) throw new Error('fake-discord: interaction needs `user` or `member`');
    this.interactions.set(full.id, {
      id: full.id,
      token: full.token,
      payload: full,
      dispatchedAt: Date.now(),
      acknowledged: false,
      responses: [],
      original: null,
      followups: [],
    });
    const sent = this.gateway.dispatch('INTERACTION_CREATE', full);
    if (sent === 0) throw new Error('fake-discord: no gateway session connected to receive INTERACTION_CREATE');
    return { id: full.id, token: full.token, payload: full };
  }

  /** Builds an APPLICATION_COMMAND (type 2) payload for dispatchInteraction. */
  slashCommand(input: SlashCommandInput): Record<string, any> {
    const base = this.interactionBase(2, input);
    const commandType = input.commandType ?? 1;
    const registered = this.findCommand(input.name, commandType, input.guildId);
    const resolved = this.emptyResolved();
    const options = this.buildOptions(input.options ?? [], (registered?.options as any[] | undefined) ?? [], input.guildId, resolved);
    const data: Record<string, any> = {
      id: input.commandId ?? registered?.id ?? snowflake(),
      name: input.name,
      type: commandType,
    };
    if (options.length) data.options = options;
    if (input.guildId) data.guild_id = registered?.guild_id ?? undefined;
    if (commandType === 2 && input.targetId) {
      data.target_id = input.targetId;
      this.resolveInto(resolved, 6, input.targetId, input.guildId);
    }
    if (commandType === 3 && input.targetId) {
      data.target_id = input.targetId;
      const msg = this.findMessage(input.targetId);
      if (msg) resolved.messages![msg.id] = this.messageJson(msg);
    }
    const compact = this.compactResolved(resolved);
    if (compact) data.resolved = compact;
    if (data.guild_id === undefined) delete data.guild_id;
    return { ...base, data };
  }

  /** Builds an APPLICATION_COMMAND_AUTOCOMPLETE (type 4) payload. */
  autocomplete(input: AutocompleteInput): Record<string, any> {
    const markFocused = (opts: CommandOptionInput[]): CommandOptionInput[] =>
      opts.map((o) => ({
        ...o,
        focused: o.focused ?? (input.focused !== undefined && o.name === input.focused && o.options === undefined ? true : undefined),
        options: o.options ? markFocused(o.options) : undefined,
      }));
    const payload = this.slashCommand({ ...input, options: markFocused(input.options ?? []) });
    delete payload.data.resolved;
    return { ...payload, type: 4 };
  }

  /** Builds a MESSAGE_COMPONENT (type 3) payload; see buttonPress / selectMenu. */
  componentInteraction(input: ComponentInput): Record<string, any> {
    const base = this.interactionBase(3, input);
    const componentType = input.componentType ?? 2;
    const message = input.message ?? this.componentMessage(input, base.channel_id as string);
    const data: Record<string, any> = { custom_id: input.customId, component_type: componentType };
    if (componentType !== 2) {
      data.values = input.values ?? [];
      if (componentType >= 5) {
        const resolved = this.emptyResolved();
        for (const v of data.values as string[]) {
          const type = componentType === 5 ? 6 : componentType === 6 ? 8 : componentType === 8 ? 7 : 9;
          this.resolveInto(resolved, type, v, input.guildId);
        }
        const compact = this.compactResolved(resolved);
        if (compact) data.resolved = compact;
      }
    }
    return { ...base, message, data };
  }

  buttonPress(input: Omit<ComponentInput, 'componentType' | 'values'>): Record<string, any> {
    return this.componentInteraction({ ...input, componentType: 2 });
  }

  selectMenu(input: Omit<ComponentInput, 'values'> & { values: string[] }): Record<string, any> {
    return this.componentInteraction({ ...input, componentType: input.componentType ?? 3 });
  }

  /** Builds a MODAL_SUBMIT (type 5) payload with text inputs. */
  modalSubmit(input: ModalSubmitInput): Record<string, any> {
    const base = this.interactionBase(5, input);
    const payload: Record<string, any> = {
      ...base,
      data: {
        custom_id: input.customId,
        components: Object.entries(input.fields).map(([customId, value], i) => ({
          type: 1,
          id: i * 2 + 1,
          components: [{ type: 4, id: i * 2 + 2, custom_id: customId, value }],
        })),
      },
    };
    if (input.messageId) {
      const msg = this.findMessage(input.messageId);
      if (msg) payload.message = this.messageJson(msg);
    }
    return payload;
  }

  /**
   * What Discord sends when the user fills in and submits the modal that the app showed in answer
   * to `interactionId` (callback type 9): a MODAL_SUBMIT (type 5) in the same place, by the same
   * user, whose `data.components` mirror the modal (Label -> `{type: 18, id, component}`, a legacy
   * Action Row -> `{type: 1, id, components}`, Text Display -> `{type: 10, id}`), text inputs with
   * `value`, string selects with `values`. The client's own checks apply: a required field left
   * empty, a text outside min/max_length or a value that is not an option throws (the user could
   * not have submitted it).
   */
  submitModal(interactionId: string, input: { values: Record<string, string | string[]> }): Record<string, any> {
    const shown = this.interactions.get(interactionId);
    const modal = shown?.modal;
    if (!shown || !modal) throw new Error(`fake-discord: interaction ${interactionId} showed no modal`);
    const p = shown.payload;
    const userId: string = p.member?.user?.id ?? p.user?.id;
    const base = this.interactionBase(5, { userId, guildId: p.guild_id, channelId: p.channel_id, locale: p.locale });
    const unused = new Set(Object.keys(input.values));
    const answer = (c: any): Record<string, any> => {
      unused.delete(c.custom_id);
      const given = input.values[c.custom_id];
      if (c.type === 4) {
        const value = given === undefined ? (c.value ?? '') : given;
        if (typeof value !== 'string') throw new Error(`fake-discord: text input ${c.custom_id} takes a string`);
        const required = c.required ?? true;
        if (required && value.length === 0) throw new Error(`fake-discord: text input ${c.custom_id} is required`);
        if (value.length > 0 && (value.length < (c.min_length ?? 0) || value.length > (c.max_length ?? 4000))) {
          throw new Error(`fake-discord: text input ${c.custom_id} must be ${c.min_length ?? 0}-${c.max_length ?? 4000} characters`);
        }
        return { type: 4, id: c.id, custom_id: c.custom_id, value };
      }
      if (c.type === 3) {
        const values = given === undefined ? c.options.filter((o: any) => o.default).map((o: any) => o.value) : Array.isArray(given) ? given : [given];
        const required = c.required ?? true;
        const min = c.min_values ?? (required ? 1 : 0);
        const max = c.max_values ?? 1;
        if (values.some((v: string) => !c.options.some((o: any) => o.value === v))) throw new Error(`fake-discord: ${values} not among the options of ${c.custom_id}`);
        if (values.length > max || (values.length < min && (required || values.length > 0))) throw new Error(`fake-discord: ${c.custom_id} takes ${min}-${max} values`);
        return { type: 3, id: c.id, custom_id: c.custom_id, values };
      }
      throw new Error(`fake-discord: modal component type ${c.type} is not simulated`);
    };
    const components = (modal.components as any[]).map((row) => {
      if (row.type === 18) return { type: 18, id: row.id, component: answer(row.component) };
      if (row.type === 1) return { type: 1, id: row.id, components: row.components.map(answer) };
      return { type: row.type, id: row.id };
    });
    if (unused.size) throw new Error(`fake-discord: the modal has no field ${[...unused].join(', ')}`);
    return { ...base, ...(p.message ? { message: p.message } : {}), data: { custom_id: modal.custom_id, components } };
  }

  requestGatewayReconnect(): void {
    this.gateway.requestReconnect();
  }

  disconnectGateway(code = 4000): void {
    this.gateway.disconnectAll(code);
  }

  // ===========================================================================================
  // internals: state helpers

  private requireUser(id: string): UserState {
    const u = this.users.get(id);
    if (!u) throw new Error(`fake-discord: unknown user ${id} (addUser first)`);
    return u;
  }

  private requireGuild(id: string): GuildState {
    const g = this.guilds.get(id);
    if (!g) throw new Error(`fake-discord: unknown guild ${id}`);
    return g;
  }

  private ensureUser(id: string): UserState {
    return this.users.get(id) ?? this.addUser({ id, username: `user${id.slice(-4)}` });
  }

  private makeRole(input: RoleInput, defaultPosition: number): RoleState {
    const managed = input.managed ?? false;
    return {
      id: input.id,
      name: input.name,
      color: input.color ?? 0,
      hoist: input.hoist ?? false,
      position: input.position ?? defaultPosition,
      permissions: toPermissionBits(input.permissions ?? 0n),
      managed,
      mentionable: input.mentionable ?? false,
      icon: input.icon ?? null,
      unicode_emoji: input.unicode_emoji ?? null,
      tags: input.tags ?? (managed ? { bot_id: this.clientId } : undefined),
    };
  }

  private roleInputOf(role: RoleState): RoleInput {
    return { ...role, tags: role.tags };
  }

  private makeChannel(guildId: string, input: ChannelInput, defaultPosition: number): ChannelState {
    return {
      id: input.id,
      guildId,
      name: input.name,
      type: input.type ?? 0,
      position: input.position ?? defaultPosition,
      parent_id: input.parent_id ?? null,
      topic: input.topic ?? null,
      nsfw: input.nsfw ?? false,
      permission_overwrites: (input.permission_overwrites ?? []).map((o) => ({
        id: o.id,
        type: o.type === 1 || o.type === 'member' ? 1 : 0,
        allow: toPermissionBits(o.allow ?? 0n),
        deny: toPermissionBits(o.deny ?? 0n),
      })),
      last_message_id: null,
      flags: input.flags ?? 0,
      available_tags: (input.available_tags ?? []).map((t) => ({ ...t })),
      thread: THREAD_TYPES.has(input.type ?? 0)
        ? {
            archived: input.thread_metadata?.archived ?? false,
            locked: input.thread_metadata?.locked ?? false,
            auto_archive_duration: input.thread_metadata?.auto_archive_duration ?? 4320,
            archive_timestamp: input.thread_metadata?.archive_timestamp ?? new Date().toISOString(),
            invitable: input.thread_metadata?.invitable ?? true,
            owner_id: input.owner_id ?? this.clientId,
            memberIds: new Set(input.member_ids ?? []),
            applied_tags: [...(input.applied_tags ?? [])],
          }
        : null,
    };
  }

  private channelInputOf(c: ChannelState): ChannelInput {
    const { thread, ...rest } = c;
    return {
      ...rest,
      permission_overwrites: c.permission_overwrites.map((o) => ({ ...o })),
      ...(thread
        ? {
            thread_metadata: { archived: thread.archived, locked: thread.locked, auto_archive_duration: thread.auto_archive_duration, invitable: thread.invitable, archive_timestamp: thread.archive_timestamp },
            owner_id: thread.owner_id,
            member_ids: [...thread.memberIds],
            applied_tags: [...thread.applied_tags],
          }
        : {}),
    };
  }

  private putMember(guild: GuildState, input: MemberInput): MemberState {
    this.ensureUser(input.userId);
    const member: MemberState = {
      userId: input.userId,
      roles: [...(input.roles ?? [])].filter((id) => id !== guild.id),
      nick: input.nick ?? null,
      joined_at: input.joined_at ?? new Date().toISOString(),
      communication_disabled_until: input.communication_disabled_until ?? null,
    };
    guild.members.set(member.userId, member);
    return member;
  }

  private putBotMember(guild: GuildState, extraRoles: string[]): void {
    const managed = guild.roles.filter((r) => r.managed && r.tags?.bot_id === this.clientId).map((r) => r.id);
    guild.members.set(this.clientId, {
      userId: this.clientId,
      roles: [...new Set([...managed, ...extraRoles])],
      nick: null,
      joined_at: new Date().toISOString(),
      communication_disabled_until: null,
    });
    guild.botInGuild = true;
  }

  private findGuildChannel(channelId: string): { guild: GuildState; channel: ChannelState } | null {
    for (const guild of this.guilds.values()) {
      const channel = guild.channels.find((c) => c.id === channelId);
      if (channel) return { guild, channel };
    }
    return null;
  }

  private findDmChannel(channelId: string): DmChannelState | null {
    for (const dm of this.dmChannels.values()) if (dm.id === channelId) return dm;
    return null;
  }

  private getOrCreateDm(userId: string): DmChannelState {
    let dm = this.dmChannels.get(userId);
    if (!dm) {
      dm = { id: snowflake(), userId, last_message_id: null };
      this.dmChannels.set(userId, dm);
    }
    return dm;
  }

  private findMessage(messageId: string): StoredMessage | null {
    for (const list of this.messages.values()) {
      const m = list.find((x) => x.id === messageId);
      if (m) return m;
    }
    for (const i of this.interactions.values()) {
      if (i.original?.id === messageId) return i.original;
      const f = i.followups.find((x) => x.id === messageId);
      if (f) return f;
    }
    return null;
  }

  private findCommand(name: string, type: number, guildId?: string): RegisteredCommand | undefined {
    const guildCmds = guildId ? (this.guildCommands.get(guildId) ?? []) : [];
    return [...guildCmds, ...this.globalCommands].find((c) => c.name === name && c.type === type);
  }

  // ===========================================================================================
  // internals: serialization

  publicUser(u: UserState): Record<string, any> {
    return {
      id: u.id,
      username: u.username,
      discriminator: u.discriminator,
      global_name: u.global_name,
      avatar: u.avatar,
      avatar_decoration_data: null,
      collectibles: null,
      primary_guild: null,
      banner: null,
      accent_color: null,
      public_flags: 0,
      flags: 0,
      ...(u.bot ? { bot: true } : {}),
    };
  }

  private oauthUser(u: UserState, scopes: string[]): Record<string, any> {
    return {
      ...this.publicUser(u),
      mfa_enabled: false,
      locale: u.locale,
      premium_type: 0,
      ...(scopes.includes('email') ? { email: u.email, verified: u.verified } : {}),
    };
  }

  private roleJson(r: RoleState): Record<string, any> {
    return {
      id: r.id,
      name: r.name,
      description: null,
      color: r.color,
      colors: { primary_color: r.color, secondary_color: null, tertiary_color: null },
      hoist: r.hoist,
      icon: r.icon,
      unicode_emoji: r.unicode_emoji,
      position: r.position,
      permissions: r.permissions.toString(),
      managed: r.managed,
      mentionable: r.mentionable,
      flags: 0,
      ...(r.tags ? { tags: r.tags } : {}),
    };
  }

  private channelJson(c: ChannelState, withGuildId: boolean): Record<string, any> {
    const out: Record<string, any> = {
      id: c.id,
      type: c.type,
      name: c.name,
      position: c.position,
      parent_id: c.parent_id,
      flags: 0,
      permission_overwrites: c.permission_overwrites.map((o) => ({
        id: o.id,
        type: o.type,
        allow: o.allow.toString(),
        deny: o.deny.toString(),
      })),
    };
    if (withGuildId) out.guild_id = c.guildId;
    if (c.type === 0 || c.type === 5 || c.type === 15) {
      Object.assign(out, { topic: c.topic, nsfw: c.nsfw, rate_limit_per_user: 0, last_message_id: c.last_message_id, default_auto_archive_duration: 4320 });
    }
    if (c.type === 2 || c.type === 13) {
      Object.assign(out, { bitrate: 64000, user_limit: 0, rtc_region: null, nsfw: c.nsfw, rate_limit_per_user: 0, last_message_id: c.last_message_id });
      if (c.type === 2) out.video_quality_mode = 1;
    }
    out.flags = c.flags;
    if (FORUM_TYPES.has(c.type)) {
      Object.assign(out, {
        available_tags: c.available_tags.map((t) => ({ id: t.id, name: t.name, moderated: !!t.moderated, emoji_id: t.emoji_id ?? null, emoji_name: t.emoji_name ?? null })),
        default_reaction_emoji: null,
        default_sort_order: null,
        default_forum_layout: 0,
        default_thread_rate_limit_per_user: 0,
      });
    }
    if (c.thread) {
      // A thread has no position nor overwrites of its own (Discord's thread object).
      delete out.position;
      delete out.permission_overwrites;
      Object.assign(out, {
        guild_id: c.guildId,
        owner_id: c.thread.owner_id,
        last_message_id: c.last_message_id,
        rate_limit_per_user: 0,
        message_count: this.messagesIn(c.id).length,
        member_count: Math.min(c.thread.memberIds.size, 50),
        total_message_sent: this.messagesIn(c.id).length,
        thread_metadata: {
          archived: c.thread.archived,
          auto_archive_duration: c.thread.auto_archive_duration,
          archive_timestamp: c.thread.archive_timestamp,
          locked: c.thread.locked,
          ...(c.type === 12 ? { invitable: c.thread.invitable } : {}),
          create_timestamp: c.thread.archive_timestamp,
        },
        ...(c.thread.applied_tags.length || this.isForumPost(c) ? { applied_tags: [...c.thread.applied_tags] } : {}),
      });
    }
    return out;
  }

  private dmChannelJson(dm: DmChannelState): Record<string, any> {
    return {
      id: dm.id,
      type: 1,
      last_message_id: dm.last_message_id,
      flags: 0,
      recipients: [this.publicUser(this.requireUser(dm.userId))],
    };
  }

  private groupDmJson(group: GroupDmState): Record<string, any> {
    return {
      id: group.id,
      type: 3,
      name: group.name,
      icon: null,
      owner_id: group.ownerId,
      last_message_id: group.last_message_id,
      flags: 0,
      recipients: group.recipientIds.map((id) => this.publicUser(this.requireUser(id))),
    };
  }

  private memberJson(guild: GuildState, m: MemberState, withUser = true): Record<string, any> {
    const out: Record<string, any> = {
      avatar: null,
      banner: null,
      communication_disabled_until: m.communication_disabled_until,
      flags: 0,
      joined_at: m.joined_at,
      nick: m.nick,
      pending: false,
      premium_since: null,
      roles: [...m.roles],
      unusual_dm_activity_until: null,
      mute: false,
      deaf: false,
    };
    if (withUser) out.user = this.publicUser(this.ensureUser(m.userId));
    void guild;
    return out;
  }

  private guildJson(g: GuildState): Record<string, any> {
    const textChannel = g.channels.find((c) => c.type === 0);
    return {
      id: g.id,
      name: g.name,
      icon: g.icon,
      icon_hash: g.icon,
      splash: null,
      discovery_splash: null,
      owner_id: g.ownerId,
      afk_channel_id: null,
      afk_timeout: 300,
      widget_enabled: false,
      widget_channel_id: null,
      verification_level: 0,
      default_message_notifications: 0,
      explicit_content_filter: 0,
      roles: g.roles.map((r) => this.roleJson(r)),
      emojis: [],
      stickers: [],
      features: [...g.features],
      mfa_level: 0,
      application_id: null,
      system_channel_id: textChannel?.id ?? null,
      system_channel_flags: 0,
      rules_channel_id: null,
      max_presences: null,
      max_members: 500000,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: g.preferred_locale,
      public_updates_channel_id: null,
      max_video_channel_users: 25,
      max_stage_video_channel_users: 50,
      nsfw_level: 0,
      nsfw: false,
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
      incidents_data: null,
      region: 'deprecated',
      home_header: null,
      hub_type: null,
      latest_onboarding_question_id: null,
    };
  }

  private guildCreatePayload(g: GuildState): Record<string, any> {
    const bot = g.members.get(this.clientId);
    return {
      ...this.guildJson(g),
      joined_at: bot?.joined_at ?? new Date().toISOString(),
      large: false,
      unavailable: false,
      lazy: true,
      member_count: g.members.size,
      voice_states: [],
      members: [...g.members.values()].map((m) => this.memberJson(g, m)),
      channels: g.channels.filter((c) => !isThread(c)).map((c) => this.channelJson(c, false)),
      threads: g.channels.filter((c) => isThread(c) && !c.thread!.archived && this.botSeesThread(g, c)).map((c) => this.channelJson(c, true)),
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
      embedded_activities: [],
      activity_instances: [],
      application_command_counts: {},
    };
  }

  private memberChunk(guildId: string, userIds: string[] | null, query: string | null, limit: number): Record<string, any>[] {
    const guild = this.guilds.get(guildId);
    if (!guild || !guild.botInGuild) return [];
    let members = [...guild.members.values()];
    const notFound: string[] = [];
    if (userIds) {
      for (const id of userIds) if (!guild.members.has(id)) notFound.push(id);
      members = members.filter((m) => userIds.includes(m.userId));
    } else if (query) {
      const q = query.toLowerCase();
      members = members.filter((m) => this.ensureUser(m.userId).username.toLowerCase().startsWith(q));
    }
    if (limit > 0) members = members.slice(0, limit);
    return [
      {
        guild_id: guildId,
        members: members.map((m) => this.memberJson(guild, m)),
        chunk_index: 0,
        chunk_count: 1,
        ...(notFound.length ? { not_found: notFound } : {}),
      },
    ];
  }

  messageJson(m: StoredMessage): Record<string, any> {
    const out: Record<string, any> = {
      id: m.id,
      type: m.type,
      channel_id: m.channel_id,
      author: m.author,
      content: m.content,
      timestamp: m.timestamp,
      edited_timestamp: m.edited_timestamp,
      tts: m.tts,
      mention_everyone: m.mention_everyone,
      mentions: m.mentions.map((id) => this.publicUser(this.ensureUser(id))),
      mention_roles: m.mention_roles,
      attachments: m.attachments,
      embeds: m.embeds,
      components: m.components,
      pinned: false,
      flags: m.flags,
    };
    if (m.nonce !== null) out.nonce = m.nonce;
    if (m.webhook_id) {
      out.webhook_id = m.webhook_id;
      if (m.interactionId) out.application_id = this.clientId;
    }
    if (m.message_reference) out.message_reference = m.message_reference;
    if (m.interaction_metadata) out.interaction_metadata = m.interaction_metadata;
    return out;
  }

  // ===========================================================================================
  // internals: interaction builders

  private interactionBase(type: number, input: InteractionContextInput): Record<string, any> {
    const user = this.requireUser(input.userId);
    const locale = input.locale ?? user.locale ?? 'en-US';
    if (input.guildId) {
      const guild = this.requireGuild(input.guildId);
      const member = guild.members.get(user.id);
      if (!member) throw new Error(`fake-discord: ${user.id} is not a member of guild ${guild.id}`);
      if (!input.channelId) throw new Error('fake-discord: channelId is required for guild interactions');
      const channel = guild.channels.find((c) => c.id === input.channelId);
      if (!channel) throw new Error(`fake-discord: channel ${input.channelId} is not in guild ${guild.id}`);
      const appPermissions =
        input.appPermissions !== undefined
          ? BigInt(input.appPermissions)
          : guild.members.has(this.clientId)
            ? this.computePermissions(guild.id, this.clientId, channel.id)
            : DM_APP_PERMISSIONS;
      return {
        type,
        guild_id: guild.id,
        guild: { id: guild.id, locale: guild.preferred_locale, features: [...guild.features] },
        guild_locale: input.guildLocale ?? guild.preferred_locale,
        channel_id: channel.id,
        channel: this.channelJson(channel, true),
        member: {
          ...this.memberJson(guild, member),
          permissions: this.computePermissions(guild.id, user.id, channel.id).toString(),
        },
        locale,
        app_permissions: appPermissions.toString(),
        context: 0,
        authorizing_integration_owners: guild.botInGuild ? { '0': guild.id } : { '1': user.id },
      };
    }
    const group = input.channelId ? this.groupDms.get(input.channelId) : undefined;
    if (group) {
      if (!group.recipientIds.includes(user.id)) throw new Error(`fake-discord: ${user.id} is not in the group DM ${group.id}`);
      // Only a user install reaches a group DM: Discord names the installing user as its owner.
      return {
        type,
        channel_id: group.id,
        channel: this.groupDmJson(group),
        user: this.publicUser(user),
        locale,
        app_permissions: (input.appPermissions !== undefined ? BigInt(input.appPermissions) : DM_APP_PERMISSIONS).toString(),
        context: 2,
        authorizing_integration_owners: { '1': user.id },
      };
    }
    const dm = input.channelId ? (this.findDmChannel(input.channelId) ?? null) : this.getOrCreateDm(user.id);
    const channel = dm ? this.dmChannelJson(dm) : { id: input.channelId, type: 1, last_message_id: null, flags: 0, recipients: [this.publicUser(user)] };
    return {
      type,
      channel_id: channel.id,
      channel,
      user: this.publicUser(user),
      locale,
      app_permissions: (input.appPermissions !== undefined ? BigInt(input.appPermissions) : DM_APP_PERMISSIONS).toString(),
      context: dm && dm.userId === user.id ? 1 : 2,
      authorizing_integration_owners: { '0': '0' },
    };
  }

  private emptyResolved(): Record<string, Record<string, any>> {
    return { users: {}, members: {}, roles: {}, channels: {}, messages: {}, attachments: {} };
  }

  private compactResolved(resolved: Record<string, Record<string, any>>): Record<string, any> | null {
    const out: Record<string, any> = {};
    for (const [k, v] of Object.entries(resolved)) if (Object.keys(v).length) out[k] = v;
    return Object.keys(out).length ? out : null;
  }

  /** Adds the entity referenced by an option of `type` (6 user, 7 channel, 8 role, 9 mentionable) to resolved. */
  private resolveInto(resolved: Record<string, Record<string, any>>, type: number, id: string, guildId?: string): void {
    const guild = guildId ? this.guilds.get(guildId) : undefined;
    const addUser = (): boolean => {
      const u = this.users.get(id);
      if (!u) return false;
      resolved.users![id] = this.publicUser(u);
      const m = guild?.members.get(id);
      if (guild && m) {
        resolved.members![id] = { ...this.memberJson(guild, m, false), permissions: this.computePermissions(guild.id, id).toString() };
      }
      return true;
    };
    const addRole = (): boolean => {
      const r = guild?.roles.find((x) => x.id === id);
      if (!r) return false;
      resolved.roles![id] = this.roleJson(r);
      return true;
    };
    if (type === 6) addUser();
    else if (type === 8) addRole();
    else if (type === 9) {
      if (!addUser()) addRole();
    } else if (type === 7) {
      const found = this.findGuildChannel(id);
      if (found) {
        const c = found.channel;
        const perms = guild && guild.members.has(this.clientId) ? this.computePermissions(found.guild.id, this.clientId, c.id) : 0n;
        resolved.channels![id] = { id: c.id, name: c.name, type: c.type, parent_id: c.parent_id, permissions: perms.toString(), guild_id: found.guild.id, flags: 0 };
      }
    }
  }

  private buildOptions(
    inputs: CommandOptionInput[],
    defs: any[],
    guildId: string | undefined,
    resolved: Record<string, Record<string, any>>,
  ): Record<string, any>[] {
    return inputs.map((input) => {
      const def = defs.find((d) => d?.name === input.name);
      let type = input.type ?? (def?.type as number | undefined);
      if (type === undefined) {
        if (input.options !== undefined && input.value === undefined) {
          type = input.options.some((o) => o.options !== undefined && o.value === undefined) ? 2 : 1;
        } else if (typeof input.value === 'boolean') type = 5;
        else if (typeof input.value === 'number') type = Number.isInteger(input.value) ? 4 : 10;
        else type = 3;
      }
      const out: Record<string, any> = { name: input.name, type };
      if (type === 1 || type === 2) {
        out.options = this.buildOptions(input.options ?? [], (def?.options as any[] | undefined) ?? [], guildId, resolved);
      } else {
        out.value = input.value;
        if (input.focused) out.focused = true;
        if (!input.focused && [6, 7, 8, 9].includes(type) && typeof input.value === 'string') {
          this.resolveInto(resolved, type, input.value, guildId);
        }
      }
      return out;
    });
  }

  private componentMessage(input: ComponentInput, channelId: string): Record<string, any> {
    if (input.messageId) {
      const stored = this.findMessage(input.messageId);
      if (stored) return this.messageJson(stored);
    }
    const componentType = input.componentType ?? 2;
    const component =
      componentType === 2
        ? { type: 2, style: 1, label: input.customId, custom_id: input.customId }
        : { type: componentType, custom_id: input.customId, options: componentType === 3 ? (input.values ?? []).map((v) => ({ label: v, value: v })) : undefined };
    return {
      id: input.messageId ?? snowflake(),
      type: 0,
      channel_id: channelId,
      author: this.publicUser(this.botUser),
      content: '',
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      components: [{ type: 1, components: [component] }],
      pinned: false,
      flags: 0,
    };
  }

  // ===========================================================================================
  // internals: messages

  private validateMessageBody(body: any, opts: { partial?: boolean; files?: number } = {}): Reply | null {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return apiError(400, 50109, 'The request body contains invalid JSON.');
    if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') {
      return formError({ content: fieldError('STRING_TYPE_CONVERT', 'Could not interpret content as string.') });
    }
    if (typeof body.content === 'string' && body.content.length > 2000) {
      return formError({ content: fieldError('BASE_TYPE_MAX_LENGTH', 'Must be 2000 or fewer in length.') });
    }
    if (Array.isArray(body.embeds) && body.embeds.length > 10) {
      return formError({ embeds: fieldError('BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.') });
    }
    if (Array.isArray(body.components) && body.components.length > 5 && !((body.flags ?? 0) & (1 << 15))) {
      return formError({ components: fieldError('BASE_TYPE_BAD_LENGTH', 'Must be between 0 and 5 in length.') });
    }
    if (!opts.partial) {
      const hasContent = typeof body.content === 'string' && body.content.length > 0;
      const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
      const hasComponents = Array.isArray(body.components) && body.components.length > 0;
      const hasFiles = (opts.files ?? 0) > 0 || (Array.isArray(body.attachments) && body.attachments.length > 0);
      const hasStickers = Array.isArray(body.sticker_ids) && body.sticker_ids.length > 0;
      if (!hasContent && !hasEmbeds && !hasComponents && !hasFiles && !hasStickers && !body.poll) {
        return apiError(400, 50006, 'Cannot send an empty message');
      }
    }
    return null;
  }

  /**
   * Resolves mentions like Discord: allowed_mentions filters what actually pings; @everyone/@here
   * and roles that are not mentionable need the bot's Mention Everyone in that channel.
   */
  private resolveMentions(content: string, allowed: any, guild: GuildState | null, channelId?: string): { users: string[]; roles: string[]; everyone: boolean } {
    const parse: string[] | null = allowed && typeof allowed === 'object' ? (Array.isArray(allowed.parse) ? allowed.parse : []) : null;
    const allowedUsers: string[] = Array.isArray(allowed?.users) ? allowed.users : [];
    const allowedRoles: string[] = Array.isArray(allowed?.roles) ? allowed.roles : [];
    const users = [...content.matchAll(/<@!?(\d{17,20})>/g)].map((m) => m[1]!);
    const roles = [...content.matchAll(/<@&(\d{17,20})>/g)].map((m) => m[1]!);
    const mentionsEveryone = /@(everyone|here)/.test(content);
    const canUsers = (id: string) => parse === null || parse.includes('users') || allowedUsers.includes(id);
    // A user-installed app answers in servers it is not a member of: it mentions nobody there.
    const inChannel = guild?.channels.some((c) => c.id === channelId) ? channelId : undefined;
    const botCanMentionAll = guild && guild.members.has(this.clientId) ? hasPermission(this.computePermissions(guild.id, this.clientId, inChannel), PermissionFlags.MentionEveryone) : false;
    const canRoles = (id: string) => {
      if (!(parse === null || parse.includes('roles') || allowedRoles.includes(id))) return false;
      const role = guild?.roles.find((r) => r.id === id);
      return !!role && (role.mentionable || botCanMentionAll);
    };
    return {
      users: [...new Set(users.filter(canUsers).filter((id) => this.users.has(id)))],
      roles: guild ? [...new Set(roles.filter(canRoles))] : [],
      everyone: mentionsEveryone && (parse === null || parse.includes('everyone')) && botCanMentionAll,
    };
  }

  private createMessage(
    channelId: string,
    guild: GuildState | null,
    body: any,
    files: NonNullable<RecordedRequest['files']>,
    extra: Partial<StoredMessage> = {},
  ): StoredMessage {
    const content: string = typeof body.content === 'string' ? body.content : '';
    const mentions = this.resolveMentions(content, body.allowed_mentions, guild, channelId);
    const attachments = files.map((f, i) => {
      const id = snowflake();
      const meta = Array.isArray(body.attachments) ? body.attachments[i] : undefined;
      return {
        id,
        filename: f.filename,
        size: f.size,
        url: `${this.url}/attachments/${channelId}/${id}/${encodeURIComponent(f.filename)}`,
        proxy_url: `${this.url}/attachments/${channelId}/${id}/${encodeURIComponent(f.filename)}`,
        content_type: f.contentType,
        ...(meta?.description ? { description: meta.description } : {}),
      };
    });
    return {
      id: snowflake(),
      channel_id: channelId,
      guild_id: guild?.id ?? null,
      type: body.message_reference ? 19 : 0,
      content,
      embeds: Array.isArray(body.embeds) ? body.embeds.map((e: any) => ({ type: 'rich', ...e })) : [],
      components: Array.isArray(body.components) ? body.components : [],
      attachments,
      flags: typeof body.flags === 'number' ? body.flags & ((1 << 2) | (1 << 6) | (1 << 12) | (1 << 15)) : 0,
      tts: body.tts === true,
      nonce: body.nonce ?? null,
      allowed_mentions: body.allowed_mentions ?? null,
      message_reference: body.message_reference ?? null,
      mentions: mentions.users,
      mention_roles: mentions.roles,
      mention_everyone: mentions.everyone,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      webhook_id: null,
      author: this.publicUser(this.botUser),
      interaction_metadata: null,
      body,
      edits: [],
      deleted: false,
      interactionId: null,
      ...extra,
    };
  }

  private applyEdit(msg: StoredMessage, body: any, files: NonNullable<RecordedRequest['files']>): void {
    const guild = msg.guild_id ? (this.guilds.get(msg.guild_id) ?? null) : null;
    if (typeof body.content === 'string' || body.content === null) {
      msg.content = body.content ?? '';
      const mentions = this.resolveMentions(msg.content, body.allowed_mentions ?? msg.allowed_mentions, guild, msg.channel_id);
      msg.mentions = mentions.users;
      msg.mention_roles = mentions.roles;
      msg.mention_everyone = mentions.everyone;
    }
    if (Array.isArray(body.embeds) || body.embeds === null) msg.embeds = (body.embeds ?? []).map((e: any) => ({ type: 'rich', ...e }));
    if (Array.isArray(body.components) || body.components === null) msg.components = body.components ?? [];
    if (body.allowed_mentions !== undefined) msg.allowed_mentions = body.allowed_mentions;
    if (typeof body.flags === 'number') msg.flags = (msg.flags & ~(1 << 2)) | (body.flags & (1 << 2));
    if (files.length) {
      msg.attachments = [...msg.attachments, ...files.map((f) => ({ id: snowflake(), filename: f.filename, size: f.size, content_type: f.contentType, url: `${this.url}/attachments/${msg.channel_id}/${f.filename}` }))];
    }
    msg.flags &= ~(1 << 7); // a deferred "thinking" message stops loading once edited
    msg.edited_timestamp = new Date().toISOString();
    msg.edits.push(body);
  }

  /**
   * Start Thread without Message (text and announcement channels: a private thread unless `type`
   * says otherwise) or Start Thread in Forum or Media Channel (a public post whose first message
   * is `message`, with `applied_tags`; Send Messages there means "create posts").
   */
  private startThread(ctx: Ctx): Reply {
    const forumLike = this.findGuildChannel(ctx.params.channelId!);
    const isForum = !!forumLike && FORUM_TYPES.has(forumLike.channel.type);
    const access = this.botChannelAccess(ctx.params.channelId!, isForum ? PermissionFlags.SendMessages : PermissionFlags.ViewChannel);
    if ('status' in access) return access;
    const parent = access.channel;
    const guild = access.guild;
    if (!parent || !guild || !(isForum || parent.type === 0 || parent.type === 5)) return apiError(400, 50024, 'Cannot execute action on this channel type');
    const body = (ctx.body ?? {}) as { name?: unknown; type?: unknown; applied_tags?: unknown; message?: any; auto_archive_duration?: unknown };
    const name = typeof body.name === 'string' ? body.name : '';
    if (name.length < 1 || name.length > 100) return apiError(400, 50035, 'Invalid Form Body', { errors: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }] } } });
    const perms = this.computePermissions(guild.id, this.clientId, parent.id);
    let type = 11;
    let tags: string[] = [];
    if (isForum) {
      if (!body.message || typeof body.message !== 'object') return apiError(400, 50035, 'Invalid Form Body', { errors: { message: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } } });
      tags = Array.isArray(body.applied_tags) ? body.applied_tags.map(String) : [];
      if (tags.length > 5) return apiError(400, 50035, 'Invalid Form Body', { errors: { applied_tags: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' }] } } });
      if (tags.some((id) => !parent.available_tags.some((t) => t.id === id))) return apiError(400, 50035, 'Invalid Form Body', { errors: { applied_tags: { _errors: [{ code: 'INVALID_TAG', message: 'Unknown tag' }] } } });
      if (tags.length === 0 && parent.flags & REQUIRE_TAG) return apiError(400, 40067, 'A tag is required to create a forum post in this channel');
      if (tags.some((id) => parent.available_tags.find((t) => t.id === id)?.moderated) && !hasPermission(perms, PermissionFlags.ManageThreads)) return MISSING_PERMISSIONS();
      const invalid = this.validateMessageBody(body.message, { files: ctx.files.length });
      if (invalid) return invalid;
    } else {
      type = body.type === 10 || body.type === 11 ? Number(body.type) : 12;
      const need = type === 12 ? PermissionFlags.CreatePrivateThreads : PermissionFlags.CreatePublicThreads;
      if (!hasPermission(perms, need)) return MISSING_PERMISSIONS();
    }
    const thread = this.makeChannel(guild.id, { id: snowflake(), name, type, parent_id: parent.id, owner_id: this.clientId, member_ids: [this.clientId], applied_tags: tags }, 0);
    guild.channels.push(thread);
    const out: Record<string, any> = this.channelJson(thread, true);
    if (isForum) {
      // The post's first message has the thread's id (Discord: the starter message).
      const msg = { ...this.createMessage(thread.id, guild, body.message, ctx.files), id: thread.id };
      this.storeChannelMessage(msg);
      thread.last_message_id = msg.id;
      out.last_message_id = msg.id;
      out.message_count = 1;
      out.message = this.messageJson(msg);
    }
    out.member = this.threadMemberJson(thread, this.clientId);
    this.gateway.dispatch('THREAD_CREATE', { ...this.channelJson(thread, true), newly_created: true });
    return json(201, out);
  }

  /** A thread's members (as added in fixtures or by `addThreadMember`). */
  addThreadMember(threadId: string, userId: string): void {
    const found = this.findGuildChannel(threadId);
    if (!found?.channel.thread) throw new Error(`fake-discord: ${threadId} is not a thread`);
    found.channel.thread.memberIds.add(userId);
  }

  /** Threads (and forum posts) of a channel, as stored. */
  threadsIn(parentId: string): ChannelState[] {
    const found = this.findGuildChannel(parentId);
    return found ? found.guild.channels.filter((c) => c.parent_id === parentId && isThread(c)) : [];
  }

  /** Whether the bot can see a thread: any thread of a channel it views, but a private one only as a member or with Manage Threads. */
  private botSeesThread(guild: GuildState, thread: ChannelState): boolean {
    if (thread.type !== 12) return true;
    if (thread.thread!.memberIds.has(this.clientId)) return true;
    return hasPermission(this.computePermissions(guild.id, this.clientId, thread.id), PermissionFlags.ManageThreads);
  }

  private isForumPost(c: ChannelState): boolean {
    if (!c.thread || !c.parent_id) return false;
    const parent = this.findGuildChannel(c.parent_id);
    return !!parent && FORUM_TYPES.has(parent.channel.type);
  }

  private threadMemberJson(thread: ChannelState, userId: string): Record<string, any> {
    return { id: thread.id, user_id: userId, join_timestamp: thread.thread!.archive_timestamp, flags: 0 };
  }

  private storeChannelMessage(msg: StoredMessage): void {
    const list = this.messages.get(msg.channel_id) ?? [];
    list.push(msg);
    this.messages.set(msg.channel_id, list);
  }

  /** Channel permission check for the bot. */
  private botChannelAccess(channelId: string, need: bigint): Reply | { guild: GuildState | null; channel: ChannelState | null; dm: DmChannelState | null } {
    const found = this.findGuildChannel(channelId);
    if (found) {
      if (!found.guild.botInGuild) return MISSING_ACCESS();
      const perms = this.computePermissions(found.guild.id, this.clientId, channelId);
      if (!hasPermission(perms, PermissionFlags.ViewChannel)) return MISSING_ACCESS();
      if (isThread(found.channel)) {
        // A private thread is seen by its members and those who may manage threads.
        if (!this.botSeesThread(found.guild, found.channel)) return MISSING_ACCESS();
        // In a thread, Send Messages in Threads stands for Send Messages.
        if (need & PermissionFlags.SendMessages) need = (need & ~PermissionFlags.SendMessages) | PermissionFlags.SendMessagesInThreads;
      }
      if (!hasPermission(perms, need)) return MISSING_PERMISSIONS();
      return { guild: found.guild, channel: found.channel, dm: null };
    }
    const dm = this.findDmChannel(channelId);
    if (dm) return { guild: null, channel: null, dm };
    // A bot is never in a group DM.
    if (this.groupDms.has(channelId)) return MISSING_ACCESS();
    return UNKNOWN_CHANNEL();
  }

  // ===========================================================================================
  // HTTP plumbing

  private route(method: string, path: string, auth: RouteAuth, handler: Handler): void {
    const { pattern, keys } = compile(path);
    this.routes.push({ method, pattern, keys, auth, handler });
  }

  private async readBody(req: IncomingMessage): Promise<{ body: any; files: NonNullable<RecordedRequest['files']>; invalid: boolean }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const buf = Buffer.concat(chunks);
    if (buf.length === 0) return { body: null, files: [], invalid: false };
    const ct = String(req.headers['content-type'] ?? '').toLowerCase();
    if (ct.includes('application/json')) {
      try {
        return { body: JSON.parse(buf.toString('utf8')), files: [], invalid: false };
      } catch {
        return { body: buf.toString('utf8'), files: [], invalid: true };
      }
    }
    if (ct.includes('application/x-www-form-urlencoded')) {
      return { body: Object.fromEntries(new URLSearchParams(buf.toString('utf8'))), files: [], invalid: false };
    }
    if (ct.includes('multipart/form-data')) {
      const form = await new Response(buf, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
      let body: any = {};
      const files: NonNullable<RecordedRequest['files']> = [];
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') {
          if (field === 'payload_json') {
            try {
              body = { ...body, ...JSON.parse(value) };
            } catch {
              return { body: value, files, invalid: true };
            }
          } else body[field] = value;
        } else {
          files.push({ field, filename: value.name, contentType: value.type || 'application/octet-stream', size: value.size });
        }
      }
      return { body, files, invalid: false };
    }
    return { body: buf.toString('utf8'), files: [], invalid: false };
  }

  private async handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url || 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    let route: string | null = null;
    const apiMatch = /^\/api(?:\/v\d+)?(\/.*)?$/.exec(path);
    if (apiMatch) route = apiMatch[1] ?? '/';
    else if (path === '/oauth2/authorize' || path === '/oauth2/authorize/') route = '/oauth2/authorize';

    // headers (authorization reduced to scheme)
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    const authHeader = headers.authorization;
    let auth: AuthKind = 'none';
    let bearer: Ctx['bearer'] = null;
    let basic: Ctx['basic'] = null;
    if (authHeader !== undefined) {
      const [scheme = '', ...rest] = authHeader.split(' ');
      const value = rest.join(' ');
      headers.authorization = scheme;
      if (scheme.toLowerCase() === 'bot') auth = value === this.botToken ? 'bot' : 'invalid';
      else if (scheme.toLowerCase() === 'bearer') {
        const t = this.accessTokens.get(value);
        if (t && !t.revoked && t.expiresAt > Date.now()) {
          auth = 'bearer';
          bearer = { userId: t.userId, scopes: t.scopes, token: value };
        } else auth = 'invalid';
      } else if (scheme.toLowerCase() === 'basic') {
        const decoded = Buffer.from(value, 'base64').toString('utf8');
        const idx = decoded.indexOf(':');
        basic = idx >= 0 ? { username: decodeURIComponent(decoded.slice(0, idx)), password: decodeURIComponent(decoded.slice(idx + 1)) } : null;
        auth = basic ? 'basic' : 'invalid';
      } else auth = 'invalid';
    }

    const { body, files, invalid } = await this.readBody(req);
    const record: RecordedRequest = {
      method,
      path,
      route: route ?? path,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
      ...(files.length ? { files } : {}),
      auth,
      status: 0,
      handled: true,
      injected: false,
      at: Date.now(),
    };
    this.requests.push(record);

    const matches = (spec: { method?: string; pathPattern: RegExp }) =>
      (!spec.method || spec.method.toUpperCase() === method) && (spec.pathPattern.test(path) || (route !== null && spec.pathPattern.test(route)));
    const hold = this.holds.find(matches);
    if (hold) {
      this.holds.splice(this.holds.indexOf(hold), 1);
      hold.reached();
      await hold.released;
    }

    let reply: Reply;
    const failure = this.failures.find((f) => f.remaining > 0 && matches(f));
    if (failure) {
      failure.remaining -= 1;
      if (failure.remaining <= 0) this.failures.splice(this.failures.indexOf(failure), 1);
      record.injected = true;
      reply = { status: failure.status, body: failure.body, headers: failure.headers };
    } else if (method === 'GET' && path === '/') {
      reply = { status: 200, text: 'fake-discord', headers: { 'content-type': 'text/plain' } };
    } else {
      reply = await this.dispatchRoute(method, route, url.searchParams, body, files, invalid, auth, bearer, basic, req.headers, record);
    }
    record.status = reply.status;
    this.writeReply(res, reply);
  }

  private async dispatchRoute(
    method: string,
    route: string | null,
    query: URLSearchParams,
    body: any,
    files: NonNullable<RecordedRequest['files']>,
    invalidBody: boolean,
    auth: AuthKind,
    bearer: Ctx['bearer'],
    basic: Ctx['basic'],
    headers: IncomingMessage['headers'],
    record: RecordedRequest,
  ): Promise<Reply> {
    if (route === null) {
      record.handled = false;
      return NOT_FOUND();
    }
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.pattern.exec(route);
      if (!m) continue;
      pathMatched = true;
      if (r.method !== method) continue;
      const params: Record<string, string> = {};
      r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1]!)));
      if (r.auth === 'bot' && auth !== 'bot') return UNAUTHORIZED();
      if (r.auth === 'bearer' && auth !== 'bearer') return UNAUTHORIZED();
      if (r.auth === 'botOrBearer' && auth !== 'bot' && auth !== 'bearer') return UNAUTHORIZED();
      if (invalidBody) return apiError(400, 50109, 'The request body contains invalid JSON.');
      return r.handler({ method, route, params, query, body, files, auth, bearer, basic, headers });
    }
    if (pathMatched) return apiError(405, 0, '405: Method Not Allowed');
    record.handled = false;
    return NOT_FOUND();
  }

  private writeReply(res: ServerResponse, reply: Reply): void {
    const headers: Record<string, string> = {
      'x-ratelimit-limit': '50',
      'x-ratelimit-remaining': '49',
      'x-ratelimit-reset': String(Date.now() / 1000 + 1),
      'x-ratelimit-reset-after': '1',
      // No X-RateLimit-Bucket: a shared hash would make @discordjs/rest serialize every route into one queue.
      ...(reply.headers ?? {}),
    };
    if (reply.status === 204) {
      res.writeHead(204, headers);
      res.end();
      return;
    }
    if (reply.text !== undefined) {
      res.writeHead(reply.status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(reply.text);
      return;
    }
    if (reply.body === undefined) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const hasCt = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
    res.writeHead(reply.status, { ...(hasCt ? {} : { 'content-type': 'application/json' }), ...headers });
    res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
  }

  // ===========================================================================================
  // routes

  private registerRoutes(): void {
    // ---- gateway
    this.route('GET', '/gateway', 'none', () => json(200, { url: this.gatewayUrl }));
    this.route('GET', '/gateway/bot', 'bot', () =>
      json(200, {
        url: this.gatewayUrl,
        shards: this.recommendedShards,
        session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: this.maxConcurrency },
      }),
    );

    // ---- users
    this.route('GET', '/users/@me', 'botOrBearer', (ctx) => {
      if (ctx.auth === 'bot') {
        return json(200, { ...this.publicUser(this.botUser), verified: true, mfa_enabled: true, email: null, locale: 'en-US', premium_type: 0 });
      }
      const b = ctx.bearer!;
      if (!b.scopes.includes('identify') && !b.scopes.includes('email')) return UNAUTHORIZED();
      return json(200, this.oauthUser(this.requireUser(b.userId), b.scopes));
    });
    this.route('GET', '/users/@me/guilds', 'botOrBearer', (ctx) => {
      let userId: string;
      if (ctx.auth === 'bot') userId = this.clientId;
      else {
        if (!ctx.bearer!.scopes.includes('guilds')) return UNAUTHORIZED();
        userId = ctx.bearer!.userId;
      }
      let list = [...this.guilds.values()].filter((g) => g.members.has(userId));
      list.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      const after = ctx.query.get('after');
      const before = ctx.query.get('before');
      if (after) list = list.filter((g) => BigInt(g.id) > BigInt(after));
      if (before) list = list.filter((g) => BigInt(g.id) < BigInt(before));
      const limit = Math.min(Math.max(Number(ctx.query.get('limit') ?? 200) || 200, 1), 200);
      list = list.slice(0, limit);
      const withCounts = ctx.query.get('with_counts') === 'true';
      return json(
        200,
        list.map((g) => ({
          id: g.id,
          name: g.name,
          icon: g.icon,
          banner: null,
          owner: g.ownerId === userId,
          permissions: this.computePermissions(g.id, userId).toString(),
          features: [...g.features],
          ...(withCounts ? { approximate_member_count: g.members.size, approximate_presence_count: 0 } : {}),
        })),
      );
    });
    this.route('GET', '/users/@me/guilds/:guildId/member', 'bearer', (ctx) => {
      const b = ctx.bearer!;
      if (!b.scopes.includes('guilds.members.read')) return UNAUTHORIZED();
      const guild = this.guilds.get(ctx.params.guildId!);
      const member = guild?.members.get(b.userId);
      if (!guild || !member) return UNKNOWN_GUILD();
      return json(200, this.memberJson(guild, member));
    });
    this.route('DELETE', '/users/@me/guilds/:guildId', 'bot', (ctx) => {
      const guild = this.guilds.get(ctx.params.guildId!);
      if (!guild || !guild.botInGuild) return UNKNOWN_GUILD();
      this.removeBotFromGuild(guild.id);
      return noContent();
    });
    this.route('POST', '/users/@me/channels', 'bot', (ctx) => {
      const recipient = ctx.body?.recipient_id;
      const user = typeof recipient === 'string' ? this.users.get(recipient) : undefined;
      if (!user || user.id === this.clientId) return apiError(400, 50033, 'Invalid Recipient(s)');
      return json(200, this.dmChannelJson(this.getOrCreateDm(user.id)));
    });
    this.route('GET', '/users/:userId', 'bot', (ctx) => {
      const user = this.users.get(ctx.params.userId!);
      return user ? json(200, this.publicUser(user)) : UNKNOWN_USER();
    });

    // ---- applications
    const appJson = () => ({
      id: this.clientId,
      name: this.botUser.username,
      icon: null,
      description: 'Fake Discord application',
      summary: '',
      type: null,
      bot_public: true,
      bot_require_code_grant: false,
      verify_key: randomHex(64),
      flags: 8953856,
      owner: this.publicUser([...this.users.values()].find((u) => !u.bot) ?? this.botUser),
      team: null,
      bot: this.publicUser(this.botUser),
      redirect_uris: [...this.redirectUris],
      integration_types_config: { '0': {}, '1': {} },
      approximate_guild_count: [...this.guilds.values()].filter((g) => g.botInGuild).length,
    });
    this.route('GET', '/applications/@me', 'bot', () => json(200, appJson()));
    this.route('GET', '/oauth2/applications/@me', 'bot', () => json(200, appJson()));

    // ---- commands
    const appCheck = (ctx: Ctx): Reply | null => (ctx.params.appId === this.clientId ? null : MISSING_ACCESS());
    const guildCheck = (ctx: Ctx): Reply | null => {
      const g = this.guilds.get(ctx.params.guildId!);
      if (!g) return UNKNOWN_GUILD();
      return g.botInGuild ? null : MISSING_ACCESS();
    };
    const listFor = (ctx: Ctx): RegisteredCommand[] => {
      if (!ctx.params.guildId) return this.globalCommands;
      let list = this.guildCommands.get(ctx.params.guildId);
      if (!list) {
        list = [];
        this.guildCommands.set(ctx.params.guildId, list);
      }
      return list;
    };
    for (const prefix of ['/applications/:appId/commands', '/applications/:appId/guilds/:guildId/commands']) {
      const guarded = (fn: (ctx: Ctx) => Reply): Handler => (ctx) => appCheck(ctx) ?? (ctx.params.guildId ? guildCheck(ctx) : null) ?? fn(ctx);
      this.route('GET', prefix, 'bot', guarded((ctx) => json(200, listFor(ctx))));
      this.route('PUT', prefix, 'bot', guarded((ctx) => {
        if (!Array.isArray(ctx.body)) return apiError(400, 50035, 'Invalid Form Body', { errors: { _errors: [{ code: 'LIST_TYPE_CONVERT', message: 'Must be an array.' }] } });
        const errors = this.validateCommands(ctx.body);
        if (errors) return formError(errors);
        const list = listFor(ctx);
        const next = ctx.body.map((c: any) => this.makeCommand(c, ctx.params.guildId, list));
        list.splice(0, list.length, ...next);
        return json(200, next);
      }));
      this.route('POST', prefix, 'bot', guarded((ctx) => {
        const errors = this.validateCommands([ctx.body]);
        if (errors) return formError(errors['0'] as Record<string, unknown>);
        const list = listFor(ctx);
        const existing = list.findIndex((c) => c.name === ctx.body.name && c.type === (ctx.body.type ?? 1));
        const cmd = this.makeCommand(ctx.body, ctx.params.guildId, list);
        if (existing >= 0) list[existing] = cmd;
        else list.push(cmd);
        return json(existing >= 0 ? 200 : 201, cmd);
      }));
      this.route('GET', `${prefix}/:commandId`, 'bot', guarded((ctx) => {
        const cmd = listFor(ctx).find((c) => c.id === ctx.params.commandId);
        return cmd ? json(200, cmd) : UNKNOWN_COMMAND();
      }));
      this.route('PATCH', `${prefix}/:commandId`, 'bot', guarded((ctx) => {
        const list = listFor(ctx);
        const idx = list.findIndex((c) => c.id === ctx.params.commandId);
        if (idx < 0) return UNKNOWN_COMMAND();
        const cmd = this.makeCommand({ ...list[idx], ...ctx.body }, ctx.params.guildId, list);
        list[idx] = cmd;
        return json(200, cmd);
      }));
      this.route('DELETE', `${prefix}/:commandId`, 'bot', guarded((ctx) => {
        const list = listFor(ctx);
        const idx = list.findIndex((c) => c.id === ctx.params.commandId);
        if (idx < 0) return UNKNOWN_COMMAND();
        list.splice(idx, 1);
        return noContent();
      }));
    }

    // ---- channels & messages
    this.route('GET', '/channels/:channelId', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel);
      if ('status' in access) return access;
      return json(200, access.channel ? this.channelJson(access.channel, true) : this.dmChannelJson(access.dm!));
    });
    this.route('GET', '/channels/:channelId/messages', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel | PermissionFlags.ReadMessageHistory);
      if ('status' in access) return access;
      const limit = Math.min(Math.max(Number(ctx.query.get('limit') ?? 50) || 50, 1), 100);
      const list = this.messagesIn(ctx.params.channelId!).slice().reverse().slice(0, limit);
      return json(200, list.map((m) => this.messageJson(m)));
    });
    this.route('GET', '/channels/:channelId/messages/:messageId', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel | PermissionFlags.ReadMessageHistory);
      if ('status' in access) return access;
      const msg = this.messagesIn(ctx.params.channelId!).find((m) => m.id === ctx.params.messageId);
      return msg ? json(200, this.messageJson(msg)) : UNKNOWN_MESSAGE();
    });
    this.route('POST', '/channels/:channelId/messages', 'bot', (ctx) => {
      const channelId = ctx.params.channelId!;
      const access = this.botChannelAccess(channelId, PermissionFlags.SendMessages);
      if ('status' in access) return access;
      if (access.channel && !TEXT_TYPES.has(access.channel.type)) return apiError(400, 50008, 'Cannot send messages in a non-text channel');
      // Chime reopens an archived thread before posting (Modify Channel); a post into one still archived is refused.
      if (access.channel?.thread?.archived) return apiError(400, 50083, 'Operation cannot be performed on an archived thread');
      if (access.dm) {
        const user = this.requireUser(access.dm.userId);
        if (!user.acceptsDms || user.bot) return apiError(403, 50007, 'Cannot send messages to this user');
      }
      const invalid = this.validateMessageBody(ctx.body, { files: ctx.files.length });
      if (invalid) return invalid;
      const msg = this.createMessage(channelId, access.guild, ctx.body, ctx.files);
      this.storeChannelMessage(msg);
      if (access.channel) access.channel.last_message_id = msg.id;
      if (access.dm) access.dm.last_message_id = msg.id;
      this.gateway.dispatch('MESSAGE_CREATE', { ...this.messageJson(msg), ...(access.guild ? { guild_id: access.guild.id } : {}) });
      return json(200, this.messageJson(msg));
    });
    this.route('PATCH', '/channels/:channelId/messages/:messageId', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel);
      if ('status' in access) return access;
      const msg = this.messagesIn(ctx.params.channelId!).find((m) => m.id === ctx.params.messageId);
      if (!msg) return UNKNOWN_MESSAGE();
      if (msg.author.id !== this.clientId) return apiError(403, 50005, 'Cannot edit a message authored by another user');
      const invalid = this.validateMessageBody(ctx.body, { partial: true });
      if (invalid) return invalid;
      this.applyEdit(msg, ctx.body, ctx.files);
      return json(200, this.messageJson(msg));
    });
    // Publish a message of an announcement channel to the channels following it (Discord docs,
    // "Crosspost Message"): Send Messages for one's own message, Manage Messages for another's;
    // 10 per hour per channel, then 429 until the oldest of the hour expires.
    this.route('POST', '/channels/:channelId/messages/:messageId/crosspost', 'bot', (ctx) => {
      const channelId = ctx.params.channelId!;
      const access = this.botChannelAccess(channelId, PermissionFlags.SendMessages);
      if ('status' in access) return access;
      if (!access.channel || access.channel.type !== 5) return apiError(400, 50024, 'Cannot execute action on this channel type');
      const msg = this.messagesIn(channelId).find((m) => m.id === ctx.params.messageId);
      if (!msg) return UNKNOWN_MESSAGE();
      if (msg.author.id !== this.clientId && !hasPermission(this.computePermissions(access.guild!.id, this.clientId, channelId), PermissionFlags.ManageMessages)) {
        return MISSING_PERMISSIONS();
      }
      if (msg.flags & 1) return apiError(400, 40033, 'This message has already been crossposted.');
      const now = Date.now();
      const hour = (this.crosspostTimes.get(channelId) ?? []).filter((at) => now - at < 3_600_000);
      if (hour.length >= 10) {
        const retryAfter = Math.max(1, Math.ceil((hour[0]! + 3_600_000 - now) / 1000));
        return json(
          429,
          { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
          {
            'retry-after': String(retryAfter),
            'x-ratelimit-limit': '10',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String((now + retryAfter * 1000) / 1000),
            'x-ratelimit-reset-after': String(retryAfter),
            'x-ratelimit-bucket': `crosspost-${channelId}`,
            'x-ratelimit-scope': 'user',
          },
        );
      }
      hour.push(now);
      this.crosspostTimes.set(channelId, hour);
      msg.flags |= 1; // CROSSPOSTED
      this.gateway.dispatch('MESSAGE_UPDATE', { ...this.messageJson(msg), guild_id: access.guild!.id });
      return json(200, this.messageJson(msg));
    });
    this.route('DELETE', '/channels/:channelId/messages/:messageId', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel);
      if ('status' in access) return access;
      const msg = this.messagesIn(ctx.params.channelId!).find((m) => m.id === ctx.params.messageId);
      if (!msg) return UNKNOWN_MESSAGE();
      msg.deleted = true;
      return noContent();
    });
    // ---- threads and forum posts (Discord docs: "Threads", "Start Thread in Forum or Media
    // Channel", "List Active Guild Threads", "Modify Channel" for a thread)
    this.route('PATCH', '/channels/:channelId', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel);
      if ('status' in access) return access;
      const channel = access.channel;
      if (!channel || !access.guild) return apiError(400, 50024, 'Cannot execute action on this channel type');
      const perms = this.computePermissions(access.guild.id, this.clientId, channel.id);
      const body = (ctx.body ?? {}) as { name?: unknown; archived?: unknown; locked?: unknown };
      if (!channel.thread) {
        if (!hasPermission(perms, PermissionFlags.ManageChannels)) return MISSING_PERMISSIONS();
        if (typeof body.name === 'string') channel.name = body.name;
      } else {
        const t = channel.thread;
        const manage = hasPermission(perms, PermissionFlags.ManageThreads);
        // Reopening: anyone who may send in an unlocked thread; a locked one takes Manage Threads.
        // Archiving is for its creator or moderators; locking and renaming for moderators.
        if (body.archived === false && t.archived && !(manage || (!t.locked && hasPermission(perms, PermissionFlags.SendMessagesInThreads)))) return MISSING_PERMISSIONS();
        if (body.archived === true && !t.archived && !(manage || t.owner_id === this.clientId)) return MISSING_PERMISSIONS();
        if (typeof body.locked === 'boolean' && body.locked !== t.locked && !manage) return MISSING_PERMISSIONS();
        // A thread that stays archived cannot be edited otherwise.
        if (t.archived && body.archived !== false && (typeof body.name === 'string' || typeof body.locked === 'boolean')) return apiError(400, 50083, 'Operation cannot be performed on an archived thread');
        if (typeof body.archived === 'boolean' && body.archived !== t.archived) {
          t.archived = body.archived;
          t.archive_timestamp = new Date().toISOString();
        }
        if (typeof body.locked === 'boolean') t.locked = body.locked;
        if (typeof body.name === 'string') channel.name = body.name;
      }
      const out = this.channelJson(channel, true);
      this.gateway.dispatch(channel.thread ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', out);
      return json(200, out);
    });
    this.route('GET', '/channels/:channelId/thread-members/:userId', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel);
      if ('status' in access) return access;
      const thread = access.channel;
      if (!thread?.thread) return apiError(400, 50024, 'Cannot execute action on this channel type');
      return thread.thread.memberIds.has(ctx.params.userId!) ? json(200, this.threadMemberJson(thread, ctx.params.userId!)) : UNKNOWN_MEMBER();
    });
    this.route('GET', '/guilds/:guildId/threads/active', 'bot', (ctx) => {
      const g = this.guilds.get(ctx.params.guildId!);
      if (!g) return UNKNOWN_GUILD();
      if (!g.botInGuild) return MISSING_ACCESS();
      // Every active thread the bot can see, and the bot's own membership of each it joined.
      const threads = g.channels.filter((c) => isThread(c) && !c.thread!.archived && this.botSeesThread(g, c));
      threads.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
      return json(200, {
        threads: threads.map((c) => this.channelJson(c, true)),
        members: threads.filter((c) => c.thread!.memberIds.has(this.clientId)).map((c) => this.threadMemberJson(c, this.clientId)),
      });
    });
    // Discord's two archived lists page differently: public ones newest archived first, `before`
    // an ISO timestamp; the joined private ones by id, newest first, `before` a thread id.
    const archivedList = (ctx: Ctx, privateOnly: boolean): Reply => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.ViewChannel | PermissionFlags.ReadMessageHistory);
      if ('status' in access) return access;
      const parent = access.channel;
      if (!parent || !access.guild) return apiError(400, 50024, 'Cannot execute action on this channel type');
      const limit = Math.min(Math.max(Number(ctx.query.get('limit') ?? 50) || 50, 2), 100);
      const before = ctx.query.get('before');
      if (before && (privateOnly ? !/^\d{1,20}$/.test(before) : Number.isNaN(Date.parse(before)))) {
        return apiError(400, 50035, 'Invalid Form Body', { errors: { before: { _errors: [{ code: privateOnly ? 'NUMBER_TYPE_COERCE' : 'DATE_TYPE_PARSE', message: 'Invalid value.' }] } } });
      }
      const archived = access.guild.channels.filter((c) => c.parent_id === parent.id && c.thread?.archived && (privateOnly ? c.type === 12 && c.thread.memberIds.has(this.clientId) : c.type !== 12));
      const list = privateOnly
        ? archived.filter((c) => !before || BigInt(c.id) < BigInt(before)).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1))
        : archived
            .filter((c) => !before || Date.parse(c.thread!.archive_timestamp) < Date.parse(before))
            .sort((a, b) => Date.parse(b.thread!.archive_timestamp) - Date.parse(a.thread!.archive_timestamp));
      const page = list.slice(0, limit);
      return json(200, {
        threads: page.map((c) => this.channelJson(c, true)),
        members: page.filter((c) => c.thread!.memberIds.has(this.clientId)).map((c) => this.threadMemberJson(c, this.clientId)),
        has_more: list.length > limit,
      });
    };
    this.route('GET', '/channels/:channelId/threads/archived/public', 'bot', (ctx) => archivedList(ctx, false));
    this.route('GET', '/channels/:channelId/users/@me/threads/archived/private', 'bot', (ctx) => archivedList(ctx, true));
    this.route('POST', '/channels/:channelId/threads', 'bot', (ctx) => this.startThread(ctx));
    this.route('POST', '/channels/:channelId/typing', 'bot', (ctx) => {
      const access = this.botChannelAccess(ctx.params.channelId!, PermissionFlags.SendMessages);
      return 'status' in access ? access : noContent();
    });

    // ---- guilds
    const botGuild = (ctx: Ctx): GuildState | Reply => {
      const g = this.guilds.get(ctx.params.guildId!);
      if (!g) return UNKNOWN_GUILD();
      if (!g.botInGuild) return MISSING_ACCESS();
      return g;
    };
    this.route('GET', '/guilds/:guildId', 'bot', (ctx) => {
      const g = botGuild(ctx);
      if ('status' in g) return g;
      const withCounts = ctx.query.get('with_counts') === 'true';
      return json(200, {
        ...this.guildJson(g),
        ...(withCounts ? { approximate_member_count: g.members.size, approximate_presence_count: 0 } : {}),
      });
    });
    this.route('GET', '/guilds/:guildId/channels', 'bot', (ctx) => {
      const g = botGuild(ctx);
      if ('status' in g) return g;
      // Threads are not channels of the list (List Active Guild Threads has them).
      return json(200, g.channels.filter((c) => !isThread(c)).map((c) => this.channelJson(c, true)));
    });
    this.route('GET', '/guilds/:guildId/roles', 'bot', (ctx) => {
      const g = botGuild(ctx);
      if ('status' in g) return g;
      return json(200, g.roles.map((r) => this.roleJson(r)));
    });
    this.route('GET', '/guilds/:guildId/roles/:roleId', 'bot', (ctx) => {
      const g = botGuild(ctx);
      if ('status' in g) return g;
      const role = g.roles.find((r) => r.id === ctx.params.roleId);
      return role ? json(200, this.roleJson(role)) : apiError(404, 10011, 'Unknown Role');
    });
    this.route('GET', '/guilds/:guildId/members', 'bot', (ctx) => {
      const g = botGuild(ctx);
      if ('status' in g) return g;
      const limit = Math.min(Math.max(Number(ctx.query.get('limit') ?? 1) || 1, 1), 1000);
      const after = ctx.query.get('after') ?? '0';
      const list = [...g.members.values()]
        .filter((m) => BigInt(m.userId) > BigInt(after))
        .sort((a, b) => (BigInt(a.userId) < BigInt(b.userId) ? -1 : 1))
        .slice(0, limit);
      return json(200, list.map((m) => this.memberJson(g, m)));
    });
    this.route('GET', '/guilds/:guildId/members/:userId', 'bot', (ctx) => {
      const g = botGuild(ctx);
      if ('status' in g) return g;
      const m = g.members.get(ctx.params.userId!);
      return m ? json(200, this.memberJson(g, m)) : UNKNOWN_MEMBER();
    });

    // ---- interactions
    this.route('POST', '/interactions/:interactionId/:token/callback', 'none', (ctx) => this.interactionCallback(ctx));

    // ---- webhooks (interaction tokens + incoming webhooks)
    this.route('GET', '/webhooks/:webhookId/:token', 'none', (ctx) => {
      const hook = this.webhooks.get(ctx.params.webhookId!);
      if (!hook || hook.token !== ctx.params.token) return UNKNOWN_WEBHOOK();
      const found = this.findGuildChannel(hook.channelId);
      return json(200, { id: hook.id, type: 1, name: hook.name, avatar: hook.avatar, channel_id: hook.channelId, guild_id: found?.guild.id ?? null, application_id: null, token: hook.token });
    });
    this.route('POST', '/webhooks/:webhookId/:token', 'none', (ctx) => this.executeWebhook(ctx));
    this.route('GET', '/webhooks/:webhookId/:token/messages/:messageId', 'none', (ctx) => this.webhookMessage(ctx, 'get'));
    this.route('PATCH', '/webhooks/:webhookId/:token/messages/:messageId', 'none', (ctx) => this.webhookMessage(ctx, 'patch'));
    this.route('DELETE', '/webhooks/:webhookId/:token/messages/:messageId', 'none', (ctx) => this.webhookMessage(ctx, 'delete'));

    // ---- OAuth2
    this.route('GET', '/oauth2/authorize', 'none', (ctx) => this.oauthAuthorize(ctx));
    this.route('POST', '/oauth2/token', 'none', (ctx) => this.oauthToken(ctx));
    this.route('POST', '/oauth2/token/revoke', 'none', (ctx) => {
      const client = this.clientAuth(ctx);
      if ('status' in client) return client;
      const token = String(ctx.body?.token ?? '');
      const access = this.accessTokens.get(token);
      if (access) access.revoked = true;
      const refresh = this.refreshTokens.get(token);
      if (refresh) refresh.used = true;
      return json(200, {});
    });
    this.route('GET', '/oauth2/@me', 'bearer', (ctx) => {
      const b = ctx.bearer!;
      const t = this.accessTokens.get(b.token)!;
      return json(200, {
        application: { id: this.clientId, name: this.botUser.username, icon: null, description: '', bot_public: true, bot_require_code_grant: false, verify_key: '' },
        scopes: b.scopes,
        expires: new Date(t.expiresAt).toISOString(),
        ...(b.scopes.includes('identify') ? { user: this.publicUser(this.requireUser(b.userId)) } : {}),
      });
    });
  }

  // ---- commands helpers

  private validateCommands(cmds: any[]): Record<string, unknown> | null {
    const errors: Record<string, unknown> = {};
    const seen = new Set<string>();
    const checkOptions = (opts: any[], path: Record<string, unknown>): void => {
      let sawOptional = false;
      const optErrors: Record<string, unknown> = {};
      opts.forEach((o, i) => {
        const e: Record<string, unknown> = {};
        if (typeof o?.name !== 'string' || !COMMAND_NAME.test(o.name) || o.name !== o.name.toLowerCase()) {
          e.name = fieldError('APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
        }
        if (typeof o?.description !== 'string' || o.description.length < 1 || o.description.length > 100) {
          e.description = fieldError('BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        }
        if (o?.type !== 1 && o?.type !== 2) {
          if (o?.required) {
            if (sawOptional) e.required = fieldError('APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options');
          } else sawOptional = true;
        }
        if (Array.isArray(o?.choices) && o.choices.length > 25) e.choices = fieldError('BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
        if (Array.isArray(o?.options)) checkOptions(o.options, e);
        if (Object.keys(e).length) optErrors[String(i)] = e;
      });
      if (opts.length > 25) optErrors._errors = [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }];
      if (Object.keys(optErrors).length) path.options = optErrors;
    };
    cmds.forEach((c, i) => {
      const e: Record<string, unknown> = {};
      const type = c?.type ?? 1;
      if (typeof c?.name !== 'string' || c.name.length < 1 || c.name.length > 32 || (type === 1 && (!COMMAND_NAME.test(c.name) || c.name !== c.name.toLowerCase()))) {
        e.name = fieldError('APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
      }
      if (type === 1 && (typeof c?.description !== 'string' || c.description.length < 1 || c.description.length > 100)) {
        e.description = fieldError('BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      }
      const key = `${type}:${c?.name}`;
      if (seen.has(key)) e.name = fieldError('APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique`);
      seen.add(key);
      if (Array.isArray(c?.options)) checkOptions(c.options, e);
      // User (2) and message (3) commands: no description, no options.
      if (type !== 1 && typeof c?.description === 'string' && c.description.length > 0) {
        e.description = fieldError('APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION', 'Context menu commands cannot have description');
      }
      if (type !== 1 && Array.isArray(c?.options) && c.options.length > 0) {
        e.options = fieldError('APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS', 'Context menu commands cannot have options');
      }
      // Discord's enums: 0 GUILD_INSTALL, 1 USER_INSTALL; 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL.
      const enumList = (v: unknown, max: number) => v === undefined || v === null || (Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x) && x >= 0 && x <= max));
      if (!enumList(c?.integration_types, 1)) e.integration_types = fieldError('ENUM_TYPE_COERCE', 'Value is not a valid enum value.');
      if (!enumList(c?.contexts, 2)) e.contexts = fieldError('ENUM_TYPE_COERCE', 'Value is not a valid enum value.');
      if (Object.keys(e).length) errors[String(i)] = e;
    });
    return Object.keys(errors).length ? errors : null;
  }

  private makeCommand(input: any, guildId: string | undefined, existing: RegisteredCommand[]): RegisteredCommand {
    const type = input.type ?? 1;
    const prev = existing.find((c) => c.name === input.name && c.type === type);
    const cmd: RegisteredCommand = {
      ...input,
      id: prev?.id ?? snowflake(),
      application_id: this.clientId,
      version: snowflake(),
      type,
      name: input.name,
      name_localizations: input.name_localizations ?? null,
      description: input.description ?? '',
      description_localizations: input.description_localizations ?? null,
      default_member_permissions: input.default_member_permissions ?? null,
      nsfw: input.nsfw ?? false,
      integration_types: input.integration_types ?? [0],
      contexts: input.contexts ?? null,
    };
    if (guildId) cmd.guild_id = guildId;
    else cmd.dm_permission = input.dm_permission ?? true;
    if (Array.isArray(input.options)) cmd.options = input.options;
    return cmd;
  }

  // ---- interaction response helpers

  private interactionByToken(appId: string, token: string): InteractionState | null {
    if (appId !== this.clientId) return null;
    for (const i of this.interactions.values()) if (i.token === token) return i;
    return null;
  }

  private recordResponse(i: InteractionState, kind: InteractionResponseKind, type: number | null, data: any, body: any, messageId: string | null, withResponse = false): void {
    i.responses.push({ kind, type, data, body, messageId, withResponse, at: Date.now() });
  }

  private interactionMessage(i: InteractionState, body: any, flags: number): StoredMessage {
    const p = i.payload;
    const guild = p.guild_id ? (this.guilds.get(p.guild_id) ?? null) : null;
    const user = p.member?.user ?? p.user;
    return this.createMessage(p.channel_id ?? p.channel?.id, guild, body ?? {}, [], {
      type: p.type === 2 ? (p.data?.type === 1 ? 20 : 23) : 19,
      webhook_id: this.clientId,
      interactionId: i.id,
      flags,
      interaction_metadata: {
        id: i.id,
        type: p.type,
        user,
        authorizing_integration_owners: p.authorizing_integration_owners,
        ...(p.type === 2 ? { name: p.data?.name, command_type: p.data?.type } : {}),
      },
    });
  }

  private interactionCallback(ctx: Ctx): Reply {
    const i = this.interactions.get(ctx.params.interactionId!);
    if (!i || i.token !== ctx.params.token) return UNKNOWN_INTERACTION();
    if (i.acknowledged) return apiError(400, 40060, 'Interaction has already been acknowledged.');
    // Discord invalidates the token of an interaction not answered (or deferred) within 3 s.
    if (Date.now() - i.dispatchedAt > (this.options.interactionResponseWindowMs ?? 3000)) return UNKNOWN_INTERACTION();
    const body = ctx.body ?? {};
    const type = Number(body.type);
    const data = body.data ?? null;
    const withResponse = ctx.query.get('with_response') === 'true';
    const p = i.payload;
    let message: StoredMessage | null = null;

    switch (type) {
      case 4: {
        const invalid = this.validateMessageBody(data ?? {}, { files: ctx.files.length });
        if (invalid) return invalid;
        message = this.interactionMessage(i, data, (data?.flags ?? 0) & ((1 << 2) | (1 << 6) | (1 << 12) | (1 << 15)));
        i.original = message;
        break;
      }
      case 5:
        message = this.interactionMessage(i, { content: '' }, (1 << 7) | ((data?.flags ?? 0) & (1 << 6)));
        i.original = message;
        break;
      case 6:
      case 7: {
        if (p.type !== 3 && p.type !== 5) return apiError(400, 40043, 'Interaction response type is not valid for this interaction');
        const stored = p.message?.id ? this.findMessage(p.message.id) : null;
        if (type === 7) {
          const invalid = this.validateMessageBody(data ?? {}, { partial: true });
          if (invalid) return invalid;
          if (stored) this.applyEdit(stored, data ?? {}, ctx.files);
        }
        message = stored;
        if (stored) i.original = stored;
        break;
      }
      case 8:
        if (p.type !== 4) return apiError(400, 40043, 'Interaction response type is not valid for this interaction');
        if (!Array.isArray(data?.choices) || data.choices.length > 25) {
          return formError({ data: { choices: fieldError('BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.') } });
        }
        break;
      case 9: {
        if (p.type === 5 || p.type === 4) return apiError(400, 40043, 'Interaction response type is not valid for this interaction');
        if (typeof data?.custom_id !== 'string' || typeof data?.title !== 'string' || !Array.isArray(data?.components)) {
          return formError({ data: fieldError('MODEL_TYPE_CONVERT', 'Invalid modal.') });
        }
        const invalid = validateModal(data);
        if (invalid) return formError({ data: invalid });
        i.modal = numberComponents(data);
        break;
      }
      default:
        return formError({ type: fieldError('BASE_TYPE_CHOICES', `Value must be one of {4, 5, 6, 7, 8, 9, 12}.`) });
    }

    i.acknowledged = true;
    this.recordResponse(i, 'callback', type, data, body, message?.id ?? null, withResponse);
    if (!withResponse) return noContent();
    return json(200, {
      interaction: {
        id: i.id,
        type: p.type,
        ...(message
          ? {
              response_message_id: message.id,
              response_message_loading: (message.flags & (1 << 7)) !== 0,
              response_message_ephemeral: (message.flags & (1 << 6)) !== 0,
            }
          : {}),
      },
      ...(message ? { resource: { type, message: this.messageJson(message) } } : type === 8 || type === 9 ? {} : {}),
    });
  }

  private executeWebhook(ctx: Ctx): Reply {
    const wait = ctx.query.get('wait') === 'true';
    const i = this.interactionByToken(ctx.params.webhookId!, ctx.params.token!);
    if (i) {
      if (!i.acknowledged) return UNKNOWN_WEBHOOK();
      const invalid = this.validateMessageBody(ctx.body, { files: ctx.files.length });
      if (invalid) return invalid;
      let msg: StoredMessage;
      if (i.original && i.original.flags & (1 << 7)) {
        // The first follow-up after a deferred reply edits the "thinking" message, like Discord.
        msg = i.original;
        this.applyEdit(msg, ctx.body, ctx.files);
      } else {
        msg = this.interactionMessage(i, ctx.body, (ctx.body?.flags ?? 0) & ((1 << 2) | (1 << 6) | (1 << 12) | (1 << 15)));
        i.followups.push(msg);
      }
      this.recordResponse(i, 'followup', null, ctx.body, ctx.body, msg.id);
      return wait ? json(200, this.messageJson(msg)) : noContent();
    }
    const hook = this.webhooks.get(ctx.params.webhookId!);
    if (!hook || hook.token !== ctx.params.token) return UNKNOWN_WEBHOOK();
    const invalid = this.validateMessageBody(ctx.body, { files: ctx.files.length });
    if (invalid) return invalid;
    const found = this.findGuildChannel(hook.channelId);
    if (!found) return UNKNOWN_WEBHOOK();
    const msg = this.createMessage(hook.channelId, found.guild, ctx.body, ctx.files, {
      webhook_id: hook.id,
      author: { id: hook.id, username: ctx.body?.username ?? hook.name, avatar: hook.avatar, discriminator: '0000', bot: true, global_name: null, public_flags: 0, flags: 0 },
    });
    this.storeChannelMessage(msg);
    found.channel.last_message_id = msg.id;
    return wait ? json(200, this.messageJson(msg)) : noContent();
  }

  private webhookMessage(ctx: Ctx, op: 'get' | 'patch' | 'delete'): Reply {
    const i = this.interactionByToken(ctx.params.webhookId!, ctx.params.token!);
    const messageId = ctx.params.messageId!;
    if (i) {
      const isOriginal = messageId === '@original' || messageId === i.original?.id;
      const msg = isOriginal ? i.original : (i.followups.find((m) => m.id === messageId) ?? null);
      if (!msg || msg.deleted) return UNKNOWN_MESSAGE();
      if (op === 'get') return json(200, this.messageJson(msg));
      if (op === 'delete') {
        msg.deleted = true;
        this.recordResponse(i, isOriginal ? 'deleteOriginal' : 'deleteFollowup', null, null, null, msg.id);
        return noContent();
      }
      const invalid = this.validateMessageBody(ctx.body, { partial: true });
      if (invalid) return invalid;
      this.applyEdit(msg, ctx.body, ctx.files);
      this.recordResponse(i, isOriginal ? 'editOriginal' : 'editFollowup', null, ctx.body, ctx.body, msg.id);
      return json(200, this.messageJson(msg));
    }
    const hook = this.webhooks.get(ctx.params.webhookId!);
    if (!hook || hook.token !== ctx.params.token) return UNKNOWN_WEBHOOK();
    const msg = this.messagesIn(hook.channelId).find((m) => m.id === messageId && m.webhook_id === hook.id);
    if (!msg) return UNKNOWN_MESSAGE();
    if (op === 'get') return json(200, this.messageJson(msg));
    if (op === 'delete') {
      msg.deleted = true;
      return noContent();
    }
    const invalid = this.validateMessageBody(ctx.body, { partial: true });
    if (invalid) return invalid;
    this.applyEdit(msg, ctx.body, ctx.files);
    return json(200, this.messageJson(msg));
  }

  // ---- OAuth2 helpers

  private redirectAllowed(uri: string): boolean {
    return this.redirectUris.length === 0 || this.redirectUris.includes(uri);
  }

  private oauthAuthorize(ctx: Ctx): Reply {
    const q = ctx.query;
    const html = (status: number, msg: string): Reply => ({ status, text: `<!doctype html><title>Discord</title><p>${msg.replace(/</g, '&lt;')}</p>` });
    if (q.get('client_id') !== this.clientId) return html(400, 'Unknown application (invalid client_id)');
    const redirectUri = q.get('redirect_uri');
    const scopes = (q.get('scope') ?? '').split(/[ +]/).filter(Boolean);
    const isBotOnly = scopes.length > 0 && scopes.every((s) => s === 'bot' || s === 'applications.commands');
    if (!redirectUri && !isBotOnly) return html(400, 'Invalid OAuth2 redirect_uri');
    if (redirectUri && !this.redirectAllowed(redirectUri)) return html(400, 'Invalid OAuth2 redirect_uri');
    if (!isBotOnly && q.get('response_type') !== 'code') return html(400, 'Invalid response_type (only "code" is supported)');
    if (scopes.length === 0) return html(400, 'Invalid scope');

    const target = redirectUri ? new URL(redirectUri) : null;
    const state = q.get('state');
    if (this.authorizingUserId === null) {
      if (!target) return html(200, 'Authorization cancelled');
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
      if (state !== null) target.searchParams.set('state', state);
      return { status: 302, headers: { location: target.toString() }, text: '' };
    }
    if (scopes.includes('bot')) {
      const guildId = q.get('guild_id');
      if (guildId && this.guilds.has(guildId)) {
        this.addBotToGuild(guildId, q.get('permissions') ? { permissions: q.get('permissions')! } : {});
      }
    }
    if (!target) return html(200, 'Authorized');
    if (q.get('response_type') === 'code') {
      const code = this.authorizeCode(this.authorizingUserId, { scopes, redirectUri: redirectUri! });
      target.searchParams.set('code', code);
    }
    if (state !== null) target.searchParams.set('state', state);
    if (scopes.includes('bot') && q.get('guild_id')) {
      target.searchParams.set('guild_id', q.get('guild_id')!);
      if (q.get('permissions')) target.searchParams.set('permissions', q.get('permissions')!);
    }
    return { status: 302, headers: { location: target.toString() }, text: '' };
  }

  private clientAuth(ctx: Ctx): Reply | { clientId: string } {
    const form = ctx.body && typeof ctx.body === 'object' ? ctx.body : {};
    const clientId = ctx.basic?.username ?? form.client_id;
    const secret = ctx.basic?.password ?? form.client_secret;
    if (clientId !== this.clientId || secret !== this.clientSecret) return oauthError(401, 'invalid_client');
    return { clientId };
  }

  private oauthToken(ctx: Ctx): Reply {
    const ct = String(ctx.headers['content-type'] ?? '');
    if (!ct.includes('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const client = this.clientAuth(ctx);
    if ('status' in client) return client;
    const form = ctx.body as Record<string, string>;
    const grant = form.grant_type;
    if (grant === 'authorization_code') {
      const code = this.codes.get(form.code ?? '');
      if (!code || code.used || code.expiresAt < Date.now()) {
        if (code) code.used = true;
        return oauthError(400, 'invalid_grant', 'Invalid "code" in request.');
      }
      if (code.redirectUri !== null ? form.redirect_uri !== code.redirectUri : form.redirect_uri !== undefined && !this.redirectAllowed(form.redirect_uri)) {
        return oauthError(400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
      }
      code.used = true;
      return json(200, this.issueTokens(code.userId, code.scopes));
    }
    if (grant === 'refresh_token') {
      const rt = this.refreshTokens.get(form.refresh_token ?? '');
      if (!rt || rt.used) return oauthError(400, 'invalid_grant', 'Invalid "refresh_token" in request.');
      rt.used = true;
      return json(200, this.issueTokens(rt.userId, rt.scopes));
    }
    if (grant === 'client_credentials') {
      const scopes = (form.scope ?? 'identify').split(' ').filter(Boolean);
      const ownerId = [...this.users.values()].find((u) => !u.bot)?.id ?? this.clientId;
      const tokens = this.issueTokens(ownerId, scopes);
      return json(200, { access_token: tokens.access_token, expires_in: tokens.expires_in, scope: tokens.scope, token_type: 'Bearer' });
    }
    return oauthError(400, 'unsupported_grant_type');
  }
}

export async function startFakeDiscord(opts: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  return new FakeDiscord(opts).listen();
}
