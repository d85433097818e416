import { Events } from 'discord.js';
import type { BotEvent } from '../types.ts';

const event: BotEvent<Events.ClientReady> = {
  name: Events.ClientReady,
  once: true,
  execute({ log }, client) {
    log.info({ bot: client.user.tag, guilds: client.guilds.cache.size }, 'discord bot connected');
  },
};

export default event;
