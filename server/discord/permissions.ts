/**
 * Discord's permission algorithm (https://discord.com/developers/docs/topics/permissions),
 * computed from REST data. Hardcoded bits instead of discord.js' `PermissionFlagsBits` so the
 * API server does not load the whole discord.js client just for a few constants.
 */

export const ADMINISTRATOR = 1n << 3n;
export const MANAGE_GUILD = 1n << 5n;
export const VIEW_CHANNEL = 1n << 10n;
export const SEND_MESSAGES = 1n << 11n;
export const EMBED_LINKS = 1n << 14n;
export const READ_MESSAGE_HISTORY = 1n << 16n;
export const MENTION_EVERYONE = 1n << 17n;
export const USE_APPLICATION_COMMANDS = 1n << 31n;
export const MANAGE_THREADS = 1n << 34n;
export const SEND_MESSAGES_IN_THREADS = 1n << 38n;

/** What owners and administrators get: every bit, including ones Discord adds later. */
export const ALL_PERMISSIONS = (1n << 64n) - 1n;

/** What a timed-out member keeps (Discord strips everything else while the timeout lasts). */
const TIMED_OUT_MASK = VIEW_CHANNEL | READ_MESSAGE_HISTORY;

export type PermissionValue = string | number | bigint | null | undefined;

export interface PermissionRole {
  id: string;
  permissions: PermissionValue;
}

export interface PermissionOverwrite {
  id: string;
  /** 0 = role (the @everyone overwrite has the guild id), 1 = member. */
  type: 0 | 1 | 'role' | 'member' | number | string;
  allow: PermissionValue;
  deny: PermissionValue;
}

export interface MemberPermissionContext {
  guildId: string;
  ownerId: string;
  userId: string;
  /** All roles of the guild (including @everyone, whose id is the guild id). */
  roles: readonly PermissionRole[];
  /** The member's role ids (Discord does not list @everyone here). */
  memberRoleIds: readonly string[];
  /** ISO instant; a timeout in the future leaves only VIEW_CHANNEL and READ_MESSAGE_HISTORY. */
  communicationDisabledUntil?: string | null;
  now?: number;
}

export function toBits(value: PermissionValue): bigint {
  if (value === null || value === undefined || value === '') return 0n;
  try {
    return BigInt(value);
  } catch {
    return 0n;
  }
}

export function hasPermission(permissions: bigint, required: bigint): boolean {
  return (permissions & required) === required;
}

function isTimedOut(ctx: MemberPermissionContext): boolean {
  if (!ctx.communicationDisabledUntil) return false;
  const until = Date.parse(ctx.communicationDisabledUntil);
  return Number.isFinite(until) && until > (ctx.now ?? Date.now());
}

/** Guild-level permissions: @everyone | member roles; owner and ADMINISTRATOR get everything. */
export function computeBasePermissions(ctx: MemberPermissionContext): bigint {
  if (ctx.userId === ctx.ownerId) return ALL_PERMISSIONS;
  const byId = new Map(ctx.roles.map((r) => [r.id, r]));
  let permissions = toBits(byId.get(ctx.guildId)?.permissions);
  for (const roleId of ctx.memberRoleIds) {
    if (roleId === ctx.guildId) continue;
    permissions |= toBits(byId.get(roleId)?.permissions);
  }
  if (hasPermission(permissions, ADMINISTRATOR)) return ALL_PERMISSIONS;
  if (isTimedOut(ctx)) permissions &= TIMED_OUT_MASK;
  return permissions;
}

const isMemberOverwrite = (o: PermissionOverwrite) => o.type === 1 || o.type === 'member' || o.type === '1';

/**
 * Channel permissions: base, then the @everyone overwrite (deny, then allow), then the member's
 * role overwrites combined (all denies, then all allows: an allow on one role beats a deny on
 * another), then the member overwrite (deny, then allow). Owner and administrator skip overwrites.
 */
export function computeChannelPermissions(ctx: MemberPermissionContext, overwrites: readonly PermissionOverwrite[]): bigint {
  const base = computeBasePermissions(ctx);
  if (base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  let permissions = base;

  const everyone = overwrites.find((o) => !isMemberOverwrite(o) && o.id === ctx.guildId);
  if (everyone) {
    permissions &= ~toBits(everyone.deny);
    permissions |= toBits(everyone.allow);
  }

  const memberRoles = new Set(ctx.memberRoleIds);
  let roleDeny = 0n;
  let roleAllow = 0n;
  for (const o of overwrites) {
    if (isMemberOverwrite(o) || o.id === ctx.guildId || !memberRoles.has(o.id)) continue;
    roleDeny |= toBits(o.deny);
    roleAllow |= toBits(o.allow);
  }
  permissions &= ~roleDeny;
  permissions |= roleAllow;

  const member = overwrites.find((o) => isMemberOverwrite(o) && o.id === ctx.userId);
  if (member) {
    permissions &= ~toBits(member.deny);
    permissions |= toBits(member.allow);
  }

  // A timeout applies after overwrites too: an overwrite cannot grant SEND_MESSAGES back.
  if (isTimedOut(ctx)) permissions &= TIMED_OUT_MASK;
  return permissions;
}

/** VIEW_CHANNEL and SEND_MESSAGES in a channel (without VIEW_CHANNEL, Discord grants nothing else). */
export function canViewAndSend(channelPermissions: bigint): boolean {
  return hasPermission(channelPermissions, VIEW_CHANNEL | SEND_MESSAGES);
}
