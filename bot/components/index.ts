import type { BotComponent } from '../types.ts';
import reminderActions from './reminder-actions.ts';
import reminderListPage from './reminder-list-page.ts';

export const components: BotComponent[] = [reminderActions, reminderListPage];
