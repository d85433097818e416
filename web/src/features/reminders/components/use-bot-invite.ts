import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { botInviteUrl, type Guild } from '@/lib/api/reminders';

/** The link that invites the bot to the chosen server, and the Invite action that opens it in a new tab. */
export function useBotInvite(guild: Guild | null, botMissing: boolean, onError: (message: string) => void) {
  const { t } = useTranslation('destinations');
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);

  // Fetch the invite link as soon as it may be needed, so the click opens the tab synchronously
  // (a window.open after an await is treated as a popup and blocked by some browsers).
  useEffect(() => {
    if (!botMissing || !guild) return;
    let live = true;
    botInviteUrl(guild.id)
      .then((r) => live && setInviteUrl(r.url))
      .catch(() => live && setInviteUrl(null));
    return () => {
      live = false;
    };
  }, [botMissing, guild]);

  function openInvite() {
    if (!guild) return;
    if (inviteUrl) {
      window.open(inviteUrl, '_blank', 'noopener,noreferrer');
      return;
    }
    botInviteUrl(guild.id)
      .then((r) => window.open(r.url, '_blank', 'noopener,noreferrer'))
      .catch((err) => onError(errorMessage(err, t('picker.errors.invite'))));
  }

  /** Forgets the link (another server is chosen, or the dialog closes). */
  const clearInvite = useCallback(() => setInviteUrl(null), []);

  return { openInvite, clearInvite };
}
