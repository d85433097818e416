import type { BotCommand } from '../types.ts';
import remind from './remind.ts';
import reminder from './reminder.ts';
import reminders from './reminders.ts';
import timezone from './timezone.ts';

export const commands: BotCommand[] = [remind, reminders, reminder, timezone];
