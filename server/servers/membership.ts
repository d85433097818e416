/**
 * Who a signed-in account is in a Discord server (docs/servers.md "Who manages a server"): asked of
 * Discord through the bot (the guild cached 30 s, the member 10 s), never taken from the client.
 * A manager is the owner, a member with Administrator or Manage Server, or a holder of the role
 * the server's settings name as "Chime managers"; everyone else in the server is a member.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerSettings } from '../db/database.ts';
import { memberGuildPermissions } from '../discord/access.ts';
import { botRestFailure } from '../discord/errors.ts';
import { fetchMemberBriefly, type GuildMember, type GuildSnapshot, loadGuild } from '../discord/guild-reads.ts';
import { hasPermission, MANAGE_GUILD } from '../discord/permissions.ts';
import type { DiscordService } from '../discord/service.ts';
import { AppError } from '../errors.ts';
import { findIdentity } from '../repositories/accounts.ts';
import { findServerSettings } from '../repositories/servers.ts';
import { settingsOrDefaults } from './settings-values.ts';

export type ServerDeps = Pick<FastifyInstance, 'db' | 'scheduler' | 'config' | 'discord' | 'log'>;
export type ServerRole = 'manager' | 'member';

export interface ServerViewer {
  guild: GuildSnapshot;
  accountId: string;
  discordUserId: string;
  username: string | null;
  member: GuildMember;
  role: ServerRole;
  settings: ServerSettings;
}

const SNOWFLAKE = /^\d{15,25}$/;

export const serverNotFound = () => new AppError('SERVER_NOT_FOUND', 'Server not found (the bot or your Discord account is not in it)');
export const notServerManager = () => new AppError('NOT_SERVER_MANAGER', "Only this server's managers can do this");

/** Manager or member, from the member's roles as Discord has them now. */
export function roleIn(guild: GuildSnapshot, userId: string, member: GuildMember, managerRoleId: string | null): ServerRole {
  if (userId === guild.ownerId) return 'manager';
  if (managerRoleId && member.roles.includes(managerRoleId)) return 'manager';
  // Administrator makes every bit set, Manage Server included.
  return hasPermission(memberGuildPermissions(guild, userId, member), MANAGE_GUILD) ? 'manager' : 'member';
}

export async function withDiscord<T>(deps: Pick<ServerDeps, 'log'>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw botRestFailure(err, deps.log);
  }
}

/** The account in this server: 404 SERVER_NOT_FOUND unless both the bot and the account's Discord user are in it. */
export async function viewServer(deps: ServerDeps, accountId: string, guildId: string): Promise<ServerViewer> {
  const discord = deps.discord;
  if (!discord || !SNOWFLAKE.test(guildId)) throw serverNotFound();
  const identity = await findIdentity(deps.db, accountId, 'discord');
  if (!identity) throw serverNotFound();
  return viewServerAs(deps, discord, accountId, identity.external_id, identity.username, guildId);
}

export async function viewServerAs(deps: ServerDeps, discord: DiscordService, accountId: string, discordUserId: string, username: string | null, guildId: string): Promise<ServerViewer> {
  const { guild, member } = await withDiscord(deps, async () => {
    const guild = await loadGuild(discord.rest, guildId);
    return { guild, member: guild ? await fetchMemberBriefly(discord.rest, guildId, discordUserId) : null };
  });
  if (!guild || !member) throw serverNotFound();
  const settings = settingsOrDefaults(guildId, await findServerSettings(deps.db, guildId));
  return { guild, accountId, discordUserId, username, member, settings, role: roleIn(guild, discordUserId, member, settings.manager_role_id) };
}

/** viewServer, then 403 NOT_SERVER_MANAGER for a member. */
export async function manageServer(deps: ServerDeps, accountId: string, guildId: string): Promise<ServerViewer> {
  const viewer = await viewServer(deps, accountId, guildId);
  if (viewer.role !== 'manager') throw notServerManager();
  return viewer;
}
