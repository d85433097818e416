import { REMIND_TOO_PREFIX } from '../../server/destinations/discord-common/delivery-message.ts';
import { unix } from '../../server/discord/message-text.ts';
import { t } from '../../server/discord/i18n.ts';
import { subscribe, unsubscribe } from '../../server/reminders/subscriptions.ts';
import { replyEphemeral, updateMessage } from '../replies/reply.ts';
import type { BotComponent } from '../types.ts';

/** "Remind me too", "Stop reminding me" and the /reminders list's Stop: `rtoo:<join|stop|unfollow>:<reminderId>`. */
const component: BotComponent = {
  prefix: REMIND_TOO_PREFIX,
  async execute(interaction, { app }) {
    const locale = interaction.locale;
    const [, action, reminderId = ''] = interaction.customId.split(':');
    if (action === 'stop' || action === 'unfollow') {
      const result = await unsubscribe(app, { discordUserId: interaction.user.id, reminderId });
      if (result.kind === 'not-subscribed') return replyEphemeral(interaction, t(locale, 'remindToo.notSubscribed'));
      // From the /reminders list: the list stays as it is (its other buttons still work); a note says it is done.
      if (action === 'unfollow') return replyEphemeral(interaction, t(locale, 'remindToo.stopped'));
      // The button goes away from this DM; nothing more comes.
      await updateMessage(interaction, { components: [] });
      return;
    }
    if (action !== 'join') return replyEphemeral(interaction, t(locale, 'errors.generic'));
    const result = await subscribe(app, { user: { id: interaction.user.id, username: interaction.user.username }, locale, guildId: interaction.guildId, reminderId });
    switch (result.kind) {
      case 'gone':
        return replyEphemeral(interaction, t(locale, 'delivery.gone'));
      case 'not-offered':
        return replyEphemeral(interaction, t(locale, 'remindToo.notOffered'));
      case 'owner':
        return replyEphemeral(interaction, t(locale, 'remindToo.owner'));
      case 'already':
        return replyEphemeral(interaction, t(locale, 'remindToo.already'));
      case 'full':
        return replyEphemeral(interaction, t(locale, 'remindToo.full', { max: result.max }));
      case 'subscribed':
        return replyEphemeral(
          interaction,
          result.nextFireUtc ? t(locale, 'remindToo.subscribed', { unix: unix(Date.parse(result.nextFireUtc)) }) : t(locale, 'remindToo.subscribedNoNext'),
        );
    }
  },
};

export default component;
