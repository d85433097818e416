import { Events, Guild, type Channel, type Role } from 'discord.js';
import type { BotContext, BotEvent } from '../types.ts';

/**
 * The access checks of server/discord/access.ts cache guild roles and channels for 30 s; the
 * gateway says when they change, so a new permission or role applies at once.
 */
function invalidate(ctx: BotContext, guildId: string | null | undefined) {
  if (guildId) ctx.app.discord?.invalidateCache(guildId);
}

function guildOf(x: Guild | Role | Channel): string | null {
  if (x instanceof Guild) return x.id;
  if ('guild' in x && x.guild) return x.guild.id;
  if ('guildId' in x && typeof x.guildId === 'string') return x.guildId;
  return null;
}

const names = [
  Events.GuildCreate,
  Events.GuildDelete,
  Events.GuildUpdate,
  Events.GuildRoleCreate,
  Events.GuildRoleUpdate,
  Events.GuildRoleDelete,
  Events.ChannelCreate,
  Events.ChannelUpdate,
  Events.ChannelDelete,
] as const;

export const guildChangeEvents: BotEvent[] = names.map((name) => ({
  name,
  execute(ctx: BotContext, ...args: unknown[]) {
    const subject = args[args.length - 1] as Guild | Role | Channel;
    invalidate(ctx, guildOf(subject));
  },
})) as BotEvent[];
