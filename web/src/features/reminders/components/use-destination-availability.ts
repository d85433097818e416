import { useCapabilities } from '@/lib/api/reminders';
import { useEmailConfigured, useMatrixConfigured, useTelegramConfigured } from '@/lib/public-config';
import { atCap, type EditableDestination } from '../api/destinations';

/** Whether a kind of destination can be added now, or why not (its hint says so). */
export type Availability = { enabled: true } | { enabled: false; reason: 'loading' | 'notConfigured' | 'noIdentity' | 'unavailable' | 'limit' | 'emailNotConfigured' | 'matrixNotConfigured' | 'telegramNotConfigured' };

const ENABLED: Availability = { enabled: true };
const AT_LIMIT: Availability = { enabled: false, reason: 'limit' };

/** Which kinds of destination can be added to this list now: the server's settings, the user's Discord link and the caps decide. */
export function useDestinationAvailability(value: readonly EditableDestination[]) {
  const capabilities = useCapabilities();
  const mail = useEmailConfigured();
  const matrixConfig = useMatrixConfigured();
  const telegramConfig = useTelegramConfigured();

  // Capabilities failing to load: logged, and Discord destinations are treated as unavailable (docs/dashboard.md "Destinations").
  if (capabilities.error) console.error('Failed to load capabilities', capabilities.error);
  function discordAvailability(type: 'discord_dm' | 'discord_channel'): Availability {
    const caps = capabilities.data;
    if (!caps) return { enabled: false, reason: capabilities.error ? 'unavailable' : 'loading' };
    if (!caps.discordConfigured) return { enabled: false, reason: 'notConfigured' };
    if (!caps.hasDiscordIdentity) return { enabled: false, reason: 'noIdentity' };
    if (atCap(value, type)) return AT_LIMIT;
    return ENABLED;
  }
  // Email needs SMTP on the server (GET /api/config), like Discord needs its settings.
  const email: Availability = !mail.loaded ? { enabled: false, reason: 'loading' } : !mail.configured ? { enabled: false, reason: 'emailNotConfigured' } : atCap(value, 'email') ? AT_LIMIT : ENABLED;

  // Matrix needs the administrator's bot account (GET /api/config), like email needs SMTP.
  const matrix: Availability = !matrixConfig.loaded
    ? { enabled: false, reason: 'loading' }
    : !matrixConfig.configured
      ? { enabled: false, reason: 'matrixNotConfigured' }
      : atCap(value, 'matrix')
        ? AT_LIMIT
        : ENABLED;

  // Telegram needs the administrator's bot (TELEGRAM_BOT_TOKEN), like Matrix.
  const telegram: Availability = !telegramConfig.loaded
    ? { enabled: false, reason: 'loading' }
    : !telegramConfig.configured
      ? { enabled: false, reason: 'telegramNotConfigured' }
      : atCap(value, 'telegram')
        ? AT_LIMIT
        : ENABLED;

  return {
    dm: discordAvailability('discord_dm'),
    channel: discordAvailability('discord_channel'),
    // Webhooks need nothing from the server: only their cap can stop them.
    webhook: atCap(value, 'webhook') ? AT_LIMIT : ENABLED,
    email,
    // Push services need nothing from the server either (docs/notifications.md).
    ntfy: atCap(value, 'ntfy') ? AT_LIMIT : ENABLED,
    gotify: atCap(value, 'gotify') ? AT_LIMIT : ENABLED,
    pushover: atCap(value, 'pushover') ? AT_LIMIT : ENABLED,
    matrix,
    telegram,
    // This browser: whether it can push is the form's to say, once clicked (it asks the permission).
    webPush: atCap(value, 'web_push') ? AT_LIMIT : ENABLED,
  };
}
