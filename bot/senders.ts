/**
 * Delivery to Discord: `discord_dm` (the owner's direct messages) and `discord_channel` (a server
 * channel, optionally mentioning a role). Each send is one REST call (plus opening the DM channel
 * once); the scheduler owns retries, so the result says whether trying again can help.
 */
import { DiscordAPIError, HTTPError, type REST } from '@discordjs/rest';
import { Routes, type APIChannel, type APIMessage } from 'discord.js';
import type { FastifyInstance } from 'fastify';
import { findIdentity, updateIdentity } from '../server/repositories/accounts.ts';
import type { DestinationSender, SendContext, SendResult } from '../server/scheduler/types.ts';
import { serverChannelAccessCheck } from './access.ts';
import { buildDeliveryMessage } from './delivery-message.ts';
import { t } from './i18n.ts';

/** Discord JSON error codes after which the destination can never work as configured. */
const PERMANENT_CODES: Record<number, string> = {
  50007: 'deliveryErrors.cannotDm',
  10003: 'deliveryErrors.unknownChannel',
  10004: 'deliveryErrors.missingAccess', // unknown guild: the bot was removed
  10013: 'deliveryErrors.noDiscordIdentity', // unknown user
  50001: 'deliveryErrors.missingAccess',
  50013: 'deliveryErrors.missingPermissions',
};

export function mapDiscordError(err: unknown, locale: string | null | undefined): Extract<SendResult, { ok: false }> {
  if (err instanceof DiscordAPIError) {
    const code = typeof err.code === 'number' ? err.code : undefined;
    const status = err.status;
    const permanent = code !== undefined ? PERMANENT_CODES[code] : undefined;
    if (permanent) {
      return { ok: false, retryable: false, disableDestination: true, error: t(locale, permanent), httpStatus: status, discordCode: code };
    }
    if (status >= 500 || status === 408 || status === 429 || status === 401) {
      // 401: the bot token is wrong; fixing the configuration makes the retry work.
      return { ok: false, retryable: true, error: t(locale, 'deliveryErrors.unavailable', { reason: `${status} ${err.message}` }), httpStatus: status, discordCode: code };
    }
    return { ok: false, retryable: false, error: t(locale, 'deliveryErrors.rejected', { reason: err.message }), httpStatus: status, discordCode: code };
  }
  if (err instanceof HTTPError) {
    return { ok: false, retryable: true, error: t(locale, 'deliveryErrors.unavailable', { reason: `${err.status} ${err.message}` }), httpStatus: err.status };
  }
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  const reason = e?.name === 'AbortError' || e?.name === 'TimeoutError' ? 'timeout' : (e?.cause?.code ?? e?.code ?? e?.message ?? String(err));
  return { ok: false, retryable: true, error: t(locale, 'deliveryErrors.unavailable', { reason }) };
}

function permanent(locale: string | null | undefined, key: string, extra: Partial<Extract<SendResult, { ok: false }>> = {}): SendResult {
  return { ok: false, retryable: false, disableDestination: true, error: t(locale, key), ...extra };
}

function lateOccurrence(ctx: SendContext): number | null {
  return ctx.late ? Date.parse(ctx.occurrenceUtc) : null;
}

async function postMessage(rest: REST, channelId: string, ctx: SendContext, roleId: string | null): Promise<APIMessage> {
  const body = buildDeliveryMessage({
    reminderId: ctx.reminder.id,
    message: ctx.reminder.message,
    locale: ctx.account.locale,
    roleId,
    lateOccurrenceMs: lateOccurrence(ctx),
    nonce: ctx.idempotencyKey,
    // app.scheduler.testDestination() sends with deliveryId 'test' and no real reminder behind it.
    buttons: ctx.deliveryId !== 'test',
  });
  return (await rest.post(Routes.channelMessages(channelId), { body, signal: ctx.signal })) as APIMessage;
}

export function createDiscordSenders(app: FastifyInstance, rest: REST): { dm: DestinationSender; channel: DestinationSender } {
  const concurrencyKey = () => 'discord';

  const dm: DestinationSender = {
    concurrencyKey,
    async send(ctx) {
      const locale = ctx.account.locale;
      const identity = await findIdentity(app.db, ctx.account.id, 'discord');
      if (!identity) return permanent(locale, 'deliveryErrors.noDiscordIdentity');
      let channelId = identity.dm_channel_id;
      let cached = channelId !== null;
      try {
        for (;;) {
          if (!channelId) {
            const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: identity.external_id }, signal: ctx.signal })) as APIChannel;
            channelId = channel.id;
            await updateIdentity(app.db, ctx.account.id, 'discord', { dm_channel_id: channelId });
          }
          try {
            await postMessage(rest, channelId, ctx, null);
            return { ok: true, httpStatus: 200 };
          } catch (err) {
            // A cached DM channel can disappear (account migrated, channel reset): reopen once.
            if (cached && err instanceof DiscordAPIError && err.code === 10003) {
              cached = false;
              channelId = null;
              await updateIdentity(app.db, ctx.account.id, 'discord', { dm_channel_id: null });
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

  const channel: DestinationSender = {
    concurrencyKey,
    async send(ctx) {
      const locale = ctx.account.locale;
      const meta = ctx.destination.metadata as { guild_id?: string; channel_id?: string; mention_role_id?: string | null };
      const guildId = meta.guild_id ? String(meta.guild_id) : '';
      const channelId = meta.channel_id ? String(meta.channel_id) : '';
      const roleId = meta.mention_role_id ? String(meta.mention_role_id) : null;
      if (!guildId || !channelId) return permanent(locale, 'deliveryErrors.invalidDestination');
      try {
        const check = serverChannelAccessCheck(app);
        if (check) {
          const identity = await findIdentity(app.db, ctx.account.id, 'discord');
          if (!identity) return permanent(locale, 'deliveryErrors.noDiscordIdentity');
          // Permissions may have changed since the reminder was set: the owner must still be allowed.
          const access = await check({ userId: identity.external_id, guildId, channelId, mentionRoleId: roleId });
          if (!access.ok) return { ok: false, retryable: false, disableDestination: true, error: access.message };
        }
        await postMessage(rest, channelId, ctx, roleId);
        return { ok: true, httpStatus: 200 };
      } catch (err) {
        return mapDiscordError(err, locale);
      }
    },
  };

  return { dm, channel };
}
