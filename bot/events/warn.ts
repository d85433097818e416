import { Events } from 'discord.js';
import type { BotEvent } from '../types.ts';

const event: BotEvent<Events.Warn> = {
  name: Events.Warn,
  execute({ log }, message) {
    log.warn({ discord: message }, 'discord client warning');
  },
};

export default event;
