/**
 * Discord permission computation, dependency-free so it can be copied into
 * (or imported by) Chime's own server.
 *
 * Follows https://discord.com/developers/docs/topics/permissions:
 *   base       = @everyone.permissions | each member role's permissions
 *   owner      -> ALL
 *   ADMINISTRATOR in base -> ALL (overwrites are ignored)
 *   channel    = base, then @everyone overwrite (deny, then allow),
 *                then all role overwrites of the member combined (deny all, then allow all),
 *                then the member-specific overwrite (deny, then allow)
 *   timed out members (communication_disabled_until in the future, not owner/admin)
 *                keep only VIEW_CHANNEL and READ_MESSAGE_HISTORY
 *
 * `applyImplicitPermissions` additionally applies the "implicit permissions"
 * rules (no VIEW_CHANNEL -> nothing; no SEND_MESSAGES -> no mention/tts/embeds/files).
 * discord.js' `GuildChannel#permissionsFor` does NOT apply those, neither does
 * Discord in the `permissions` strings it sends, so they are kept separate.
 */

export const PermissionFlags = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  ViewAuditLog: 1n << 7n,
  PrioritySpeaker: 1n << 8n,
  Stream: 1n << 9n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  SendTTSMessages: 1n << 12n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  MentionEveryone: 1n << 17n,
  UseExternalEmojis: 1n << 18n,
  ViewGuildInsights: 1n << 19n,
  Connect: 1n << 20n,
  Speak: 1n << 21n,
  MuteMembers: 1n << 22n,
  DeafenMembers: 1n << 23n,
  MoveMembers: 1n << 24n,
  UseVAD: 1n << 25n,
  ChangeNickname: 1n << 26n,
  ManageNicknames: 1n << 27n,
  ManageRoles: 1n << 28n,
  ManageWebhooks: 1n << 29n,
  ManageGuildExpressions: 1n << 30n,
  UseApplicationCommands: 1n << 31n,
  RequestToSpeak: 1n << 32n,
  ManageEvents: 1n << 33n,
  ManageThreads: 1n << 34n,
  CreatePublicThreads: 1n << 35n,
  CreatePrivateThreads: 1n << 36n,
  UseExternalStickers: 1n << 37n,
  SendMessagesInThreads: 1n << 38n,
  UseEmbeddedActivities: 1n << 39n,
  ModerateMembers: 1n << 40n,
  ViewCreatorMonetizationAnalytics: 1n << 41n,
  UseSoundboard: 1n << 42n,
  CreateGuildExpressions: 1n << 43n,
  CreateEvents: 1n << 44n,
  UseExternalSounds: 1n << 45n,
  SendVoiceMessages: 1n << 46n,
  SetVoiceChannelStatus: 1n << 48n,
  SendPolls: 1n << 49n,
  UseExternalApps: 1n << 50n,
  PinMessages: 1n << 51n,
  BypassSlowmode: 1n << 52n,
} as const;

export type PermissionName = keyof typeof PermissionFlags;

/** Every known permission bit (what an owner / Administrator gets). */
export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlags).reduce((acc, bit) => acc | bit, 0n);

/** Discord's default @everyone permissions for a freshly created guild. */
export const DEFAULT_EVERYONE_PERMISSIONS: bigint =
  PermissionFlags.CreateInstantInvite |
  PermissionFlags.AddReactions |
  PermissionFlags.Stream |
  PermissionFlags.ViewChannel |
  PermissionFlags.SendMessages |
  PermissionFlags.EmbedLinks |
  PermissionFlags.AttachFiles |
  PermissionFlags.ReadMessageHistory |
  PermissionFlags.UseExternalEmojis |
  PermissionFlags.Connect |
  PermissionFlags.Speak |
  PermissionFlags.UseVAD |
  PermissionFlags.ChangeNickname |
  PermissionFlags.UseApplicationCommands |
  PermissionFlags.RequestToSpeak |
  PermissionFlags.CreatePublicThreads |
  PermissionFlags.CreatePrivateThreads |
  PermissionFlags.UseExternalStickers |
  PermissionFlags.SendMessagesInThreads |
  PermissionFlags.UseEmbeddedActivities |
  PermissionFlags.UseSoundboard |
  PermissionFlags.UseExternalSounds |
  PermissionFlags.SendVoiceMessages |
  PermissionFlags.SendPolls |
  PermissionFlags.UseExternalApps;

export type PermissionInput = bigint | number | string;

/** Parses a permission value as Discord sends it (decimal string) or as a bigint/number. */
export function toPermissionBits(value: PermissionInput | null | undefined): bigint {
  if (value === null || value === undefined || value === '') return 0n;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`invalid permission number ${value}`);
    return BigInt(value);
  }
  if (!/^\d+$/.test(value)) throw new RangeError(`invalid permission string ${JSON.stringify(value)}`);
  return BigInt(value);
}

export function hasPermission(permissions: bigint, required: bigint): boolean {
  return (permissions & required) === required;
}

/** Names of the set bits, for readable assertions / error messages. */
export function permissionNames(permissions: bigint): PermissionName[] {
  return (Object.keys(PermissionFlags) as PermissionName[]).filter((name) => (permissions & PermissionFlags[name]) !== 0n);
}

export interface PermissionRole {
  id: string;
  permissions: PermissionInput;
}

/** Overwrite type: 0 = role, 1 = member (Discord's numeric values); 'role' / 'member' accepted too. */
export interface PermissionOverwrite {
  id: string;
  type: 0 | 1 | 'role' | 'member';
  allow: PermissionInput;
  deny: PermissionInput;
}

export interface BasePermissionContext {
  guildId: string;
  ownerId: string;
  userId: string;
  /** All roles of the guild (the @everyone role has id === guildId). */
  roles: readonly PermissionRole[];
  /** Role ids of the member (without @everyone; it is included automatically). */
  memberRoleIds: readonly string[];
  /** ISO timestamp; a member timed out until a future instant loses most permissions. */
  communicationDisabledUntil?: string | null;
  /** For timeout evaluation; defaults to Date.now(). */
  now?: number;
}

function isTimedOut(ctx: BasePermissionContext): boolean {
  if (!ctx.communicationDisabledUntil) return false;
  const until = Date.parse(ctx.communicationDisabledUntil);
  return Number.isFinite(until) && until > (ctx.now ?? Date.now());
}

const TIMEOUT_ALLOWED = PermissionFlags.ViewChannel | PermissionFlags.ReadMessageHistory;

/** Guild-level permissions (what `/users/@me/guilds` reports, no channel overwrites). */
export function computeBasePermissions(ctx: BasePermissionContext): bigint {
  if (ctx.userId === ctx.ownerId) return ALL_PERMISSIONS;
  const byId = new Map(ctx.roles.map((r) => [r.id, r]));
  let perms = toPermissionBits(byId.get(ctx.guildId)?.permissions);
  for (const roleId of ctx.memberRoleIds) {
    const role = byId.get(roleId);
    if (role) perms |= toPermissionBits(role.permissions);
  }
  if (hasPermission(perms, PermissionFlags.Administrator)) return ALL_PERMISSIONS;
  if (isTimedOut(ctx)) perms &= TIMEOUT_ALLOWED;
  return perms;
}

function overwriteType(type: PermissionOverwrite['type']): 0 | 1 {
  return type === 1 || type === 'member' ? 1 : 0;
}

/** Applies channel overwrites to already computed base permissions. */
export function computeOverwrites(
  basePermissions: bigint,
  ctx: Pick<BasePermissionContext, 'guildId' | 'userId' | 'memberRoleIds'>,
  overwrites: readonly PermissionOverwrite[],
): bigint {
  if (hasPermission(basePermissions, PermissionFlags.Administrator)) return ALL_PERMISSIONS;
  let perms = basePermissions;

  const everyone = overwrites.find((o) => o.id === ctx.guildId && overwriteType(o.type) === 0);
  if (everyone) {
    perms &= ~toPermissionBits(everyone.deny);
    perms |= toPermissionBits(everyone.allow);
  }

  let allow = 0n;
  let deny = 0n;
  const memberRoles = new Set(ctx.memberRoleIds);
  for (const o of overwrites) {
    if (overwriteType(o.type) !== 0 || o.id === ctx.guildId || !memberRoles.has(o.id)) continue;
    allow |= toPermissionBits(o.allow);
    deny |= toPermissionBits(o.deny);
  }
  perms &= ~deny;
  perms |= allow;

  const member = overwrites.find((o) => o.id === ctx.userId && overwriteType(o.type) === 1);
  if (member) {
    perms &= ~toPermissionBits(member.deny);
    perms |= toPermissionBits(member.allow);
  }
  return perms;
}

/**
 * Full algorithm: base permissions + channel overwrites (+ timeout restriction).
 * Pass `overwrites: undefined` for guild-level permissions.
 */
export function computeMemberPermissions(
  ctx: BasePermissionContext,
  overwrites?: readonly PermissionOverwrite[],
): bigint {
  const base = computeBasePermissions(ctx);
  if (!overwrites || base === ALL_PERMISSIONS) return base;
  let perms = computeOverwrites(base, ctx, overwrites);
  if (isTimedOut(ctx)) perms &= TIMEOUT_ALLOWED;
  return perms;
}

const TEXT_DEPENDENT_ON_SEND =
  PermissionFlags.MentionEveryone |
  PermissionFlags.SendTTSMessages |
  PermissionFlags.AttachFiles |
  PermissionFlags.EmbedLinks;

/**
 * Discord's "implicit permissions" for a channel: without VIEW_CHANNEL nothing is
 * usable; without SEND_MESSAGES mentions/tts/files/embeds are denied too.
 */
export function applyImplicitPermissions(permissions: bigint): bigint {
  if (hasPermission(permissions, PermissionFlags.Administrator)) return permissions;
  if (!hasPermission(permissions, PermissionFlags.ViewChannel)) return 0n;
  if (!hasPermission(permissions, PermissionFlags.SendMessages)) return permissions & ~TEXT_DEPENDENT_ON_SEND;
  return permissions;
}

/** Can a member with these channel permissions post a message there? */
export function canSendMessages(channelPermissions: bigint): boolean {
  return hasPermission(channelPermissions, PermissionFlags.ViewChannel | PermissionFlags.SendMessages);
}
