import type { BotEvent } from '../types.ts';
import error from './error.ts';
import { guildChangeEvents } from './guild-changes.ts';
import interactionCreate from './interaction-create.ts';
import ready from './ready.ts';
import warn from './warn.ts';

export const events = [ready, interactionCreate, error, warn, ...guildChangeEvents] as BotEvent[];
