import { findAccountForDiscordUser } from '../../server/accounts/discord-accounts.ts';
import { renderReminderList } from '../replies/reminder-list.ts';
import { updateMessage } from '../replies/reply.ts';
import type { BotComponent } from '../types.ts';

/** Previous / Next under /reminders: `list:<page>`. The list is always the presser's own. */
const component: BotComponent = {
  prefix: 'list',
  async execute(interaction, { app }) {
    const page = Number(interaction.customId.split(':')[1]);
    const account = await findAccountForDiscordUser(app.db, interaction.user.id);
    if (!account) {
      await updateMessage(interaction, { components: [] });
      return;
    }
    const view = await renderReminderList(app.db, account, interaction.locale, page);
    await updateMessage(interaction, { ...view, allowedMentions: { parse: [] } });
  },
};

export default component;
