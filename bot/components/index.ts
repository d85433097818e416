import type { BotComponent, BotModal } from '../types.ts';
import remindMessageModal from './remind-message-modal.ts';
import reminderActions from './reminder-actions.ts';
import remindToo from './remind-too.ts';
import reminderListPage from './reminder-list-page.ts';
import serverReminders from './server-reminders.ts';

export const components: BotComponent[] = [reminderActions, remindToo, reminderListPage, serverReminders];

/** Submitted modals, by the prefix of their custom id. */
export const modals: BotModal[] = [remindMessageModal];
