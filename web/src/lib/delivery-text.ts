import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from './api-client';
import type { DestinationMetadata } from './api/types';
import { webhookPlace } from './webhook-place';

/*
 * Delivery codes and destination names in the user's language (locales/<lng>/delivery.json),
 * shared by the reminder's history, the dashboard's problems and the wizard's checks. The server
 * stores a stable code next to an English detail: the code is translated here, the detail is
 * the fallback for a code this dashboard does not know yet.
 */

export interface CodeContext {
  /** Names the server quoted (channel, role, guild) and who lacks the permission ('user' | 'bot'). */
  params?: Record<string, unknown> | null | undefined;
  /** The destination, whose saved names fill {{channel}}, {{role}}, {{guild}} when params lack them. */
  metadata?: DestinationMetadata | null | undefined;
  httpStatus?: number | null | undefined;
  /** The server's English detail: shown for an unknown code. */
  fallback?: string | null | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * A role's name for "@{{role}}": Discord names the @everyone role "@everyone" (its id is the
 * server's), the other roles without the @.
 */
export const bareRoleName = (name: string): string => name.replace(/^@/, '');

/** Host of a webhook URL, or null when it does not parse. */

export function useDeliveryText() {
  const { t, i18n } = useTranslation('delivery');

  const TYPES: Record<string, string> = {
    webhook: t('types.webhook'),
    discord_dm: t('types.discord_dm'),
    discord_channel: t('types.discord_channel'),
    email: t('types.email'),
    ntfy: t('notifications:services.ntfy'),
    gotify: t('notifications:services.gotify'),
    pushover: t('notifications:services.pushover'),
    matrix: t('matrix:service'),
    telegram: t('telegram:service'),
    web_push: t('webpush:service'),
  };
  const PLATFORMS: Record<string, string> = { generic: t('platforms.generic'), discord: t('platforms.discord'), slack: t('platforms.slack') };
  const STATUSES: Record<string, string> = {
    pending: t('status.pending'),
    retrying: t('status.retrying'),
    delivered: t('status.delivered'),
    failed: t('status.failed'),
  };

  /** A failure code in words, with the names it quotes; the English detail for an unknown code. */
  function codeText(code: string | null | undefined, ctx: CodeContext = {}): string {
    const fallback = str(ctx.fallback) ?? t('codes.unknown');
    if (!code || !i18n.exists(`delivery:codes.${code}`)) return fallback;
    const p = ctx.params ?? {};
    const m = ctx.metadata ?? {};
    return t(`codes.${code}`, {
      channel: str(p.channel) ?? m.channel_name ?? m.channel_id ?? '?',
      role: str(p.role) ?? (m.mention_role_name ? bareRoleName(m.mention_role_name) : undefined) ?? m.mention_role_id ?? '?',
      guild: str(p.guild) ?? m.guild_name ?? m.guild_id ?? '?',
      status: ctx.httpStatus ?? str(p.status) ?? '?',
      // A forum tag's name (DISCORD_FORUM_TAG_MODERATED).
      tag: str(p.tag) ?? '?',
      // DISCORD_CANNOT_POST_user...: the user, not the bot, lacks the permission.
      context: p.who === 'user' ? 'user' : undefined,
    });
  }

  /** A thrown API error in words, by its precise reason (a Discord access check) or its code. */
  function errorText(err: unknown, ctx: Omit<CodeContext, 'params' | 'fallback'> = {}): string {
    if (err instanceof ApiError) {
      const reason = str(err.details.reason);
      const params = err.details.params && typeof err.details.params === 'object' ? (err.details.params as Record<string, unknown>) : null;
      for (const code of [reason, err.code]) {
        if (code && i18n.exists(`delivery:codes.${code}`)) return codeText(code, { ...ctx, params });
      }
    }
    // Not a delivery code: the same rules as every other error text (translated code, the
    // server's own words, never a raw status such as "Internal Server Error").
    return errorMessage(err);
  }

  /** "Slack webhook · hooks.example.com/standup", "#general in My Server", "Discord direct message". */
  function destinationLabel(type: string, metadata?: DestinationMetadata | null, serverLabel?: string): string {
    const m = metadata ?? {};
    if (type === 'webhook') {
      const host = webhookPlace(m.url);
      return host ? t('labels.webhook', { platform: PLATFORMS[m.platform ?? 'generic'] ?? PLATFORMS.generic, host }) : (TYPES.webhook as string);
    }
    if (type === 'discord_channel') {
      if (!m.channel_name || !m.guild_name) return TYPES.discord_channel as string;
      return m.mention_role_name
        ? t('labels.channelWithRole', { channel: m.channel_name, guild: m.guild_name, role: bareRoleName(m.mention_role_name) })
        : t('labels.channel', { channel: m.channel_name, guild: m.guild_name });
    }
    if (type === 'email') {
      // Read loosely: the email module's metadata may be newer than this dashboard's types.
      const address = str((m as Record<string, unknown>).address);
      return address ? t('labels.email', { address }) : (TYPES.email as string);
    }
    return TYPES[type] ?? serverLabel ?? type;
  }

  return {
    codeText,
    errorText,
    destinationLabel,
    typeName: (type: string) => TYPES[type] ?? type,
    statusText: (status: string) => STATUSES[status] ?? status,
    lateText: t('status.late'),
  };
}
