/**
 * Delivery to the owner's Discord direct messages, over the bot's REST client. Loaded on the first
 * Discord send (see create-sender.ts).
 */
import type { REST } from '@discordjs/rest';
import { isDiscordApiError } from '../../discord/errors.ts';
import { Routes, type APIChannel } from 'discord.js';
import { t } from '../../discord/i18n.ts';
import type { DB } from '../../db/connection.ts';
import { findIdentity, updateIdentity } from '../../repositories/accounts.ts';
import type { DestinationSender } from '../../scheduler/types.ts';
import { DISCORD_CODES, discordConcurrencyKey, mapDiscordError, permanentFailure, postDeliveryMessage } from '../discord-common/delivery.ts';

export interface DiscordDmSenderDeps {
  db: DB;
  /** The bot's REST client (shares its rate-limit state with the rest of the app). */
  rest: REST;
  /** A "Remind me too" subscriber's DM (discord-subscriber): "Stop reminding me" instead of the owner's buttons. */
  subscriber?: boolean;
}

export function createDiscordDmSender(deps: DiscordDmSenderDeps): DestinationSender {
  const { db, rest } = deps;
  return {
    concurrencyKey: discordConcurrencyKey,
    async send(ctx) {
      const locale = ctx.account.locale;
      const identity = await findIdentity(db, ctx.account.id, 'discord');
      if (!identity) return permanentFailure(DISCORD_CODES.IDENTITY_REQUIRED, t(locale, 'deliveryErrors.noDiscordIdentity'));
      let channelId = identity.dm_channel_id;
      let cached = channelId !== null;
      try {
        for (;;) {
          if (!channelId) {
            const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: identity.external_id }, signal: ctx.signal })) as APIChannel;
            channelId = channel.id;
            await updateIdentity(db, ctx.account.id, 'discord', { dm_channel_id: channelId });
          }
          try {
            await postDeliveryMessage(rest, channelId, ctx, null, false, { subscriber: deps.subscriber === true });
            return { ok: true, httpStatus: 200 };
          } catch (err) {
            // A cached DM channel can disappear (account migrated, channel reset): reopen once.
            if (cached && isDiscordApiError(err) && err.code === 10003) {
              cached = false;
              channelId = null;
              await updateIdentity(db, ctx.account.id, 'discord', { dm_channel_id: null });
              continue;
            }
            throw err;
          }
        }
      } catch (err) {
        return mapDiscordError(err, locale);
      }
    },
  };
}
