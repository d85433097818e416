import { findAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { oneLine, truncate } from '../../server/discord/message-text.ts';
import { getServerReminder, pauseServerReminder, removeServerReminder, resumeServerReminder, takeOverServerReminder } from '../../server/servers/service.ts';
import { updateMessage } from '../replies/reply.ts';
import { st } from '../replies/server-text.ts';
import { renderRemoveConfirmation, renderServerReminders, renderTakeOverConfirmation, type ServerButton, SERVER_PREFIX } from '../replies/server-views.ts';
import type { BotComponent } from '../types.ts';

const ACTIONS: readonly ServerButton[] = ['page', 'pause', 'resume', 'ask', 'delete', 'askTake', 'take'];

/**
 * The buttons of `/server reminders` (bot/replies/server-views.ts): `srv:page:<page>` (Previous,
 * Next, Cancel), `srv:pause|resume|ask|delete|askTake|take:<page>:<reminder id>` (ask and askTake
 * show the confirmation; delete and take act). The server is the one the
 * message is in; every press asks the servers service again with the presser's account, so a
 * manager who lost the role is refused, and the actions are the API's own calls (audit included).
 */
const component: BotComponent = {
  prefix: SERVER_PREFIX,
  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const [, rawAction, rawPage, reminderId = ''] = interaction.customId.split(':');
    const action = rawAction as ServerButton;
    const page = Math.max(0, Number(rawPage) || 0);
    const guildId = interaction.guildId;
    const account = await findAccountForDiscordUser(app.db, interaction.user.id);
    if (!guildId || !account || !ACTIONS.includes(action)) return updateMessage(interaction, { components: [] });

    let notice: string | undefined;
    if (action === 'ask') {
      const view = await getServerReminder(app, account.id, guildId, reminderId);
      return updateMessage(interaction, { ...renderRemoveConfirmation(locale, view, page), allowedMentions: { parse: [] } });
    }
    if (action === 'askTake') {
      const view = await getServerReminder(app, account.id, guildId, reminderId);
      return updateMessage(interaction, { ...renderTakeOverConfirmation(locale, view, page), allowedMentions: { parse: [] } });
    }
    if (action === 'pause') {
      const view = await pauseServerReminder(app, account.id, guildId, reminderId);
      notice = st(locale, 'done.paused', { message: truncate(oneLine(view.reminder.message), 200) });
    } else if (action === 'resume') {
      const view = await resumeServerReminder(app, account.id, guildId, reminderId);
      notice = st(locale, 'done.resumed', { message: truncate(oneLine(view.reminder.message), 200) });
    } else if (action === 'delete') {
      // Quoted before it goes: the removal answers only whether the reminder ended.
      const text = truncate(oneLine((await getServerReminder(app, account.id, guildId, reminderId)).reminder.message), 200);
      const { ended } = await removeServerReminder(app, account.id, guildId, reminderId);
      notice = st(locale, ended ? 'done.removedEnded' : 'done.removed', { message: text });
    } else if (action === 'take') {
      // The dashboard's take-over: the same service call, so the audit records it with this manager.
      const view = await takeOverServerReminder(app, account.id, guildId, reminderId);
      notice = st(locale, 'done.tookOver', { message: truncate(oneLine(view.reminder.message), 200) });
    }
    const view = await renderServerReminders(app, account.id, guildId, locale, page, notice);
    await updateMessage(interaction, { ...view, allowedMentions: { parse: [] } });
  },
};

export default component;
