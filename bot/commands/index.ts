import type { BotCommand, BotMessageCommand } from '../types.ts';
import remindMessage from './remind-message.ts';
import remind from './remind.ts';
import reminder from './reminder.ts';
import reminders from './reminders.ts';
import server from './server.ts';
import timezone from './timezone.ts';

export const commands: BotCommand[] = [remind, reminders, reminder, timezone, server];

/** Message context-menu commands (Apps > ... on a message). */
export const messageCommands: BotMessageCommand[] = [remindMessage];
