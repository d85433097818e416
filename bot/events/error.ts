import { Events } from 'discord.js';
import type { BotEvent } from '../types.ts';

/** Without a listener, an 'error' event would crash the process. */
const event: BotEvent<Events.Error> = {
  name: Events.Error,
  execute({ log }, err) {
    log.error({ err }, 'discord client error');
  },
};

export default event;
