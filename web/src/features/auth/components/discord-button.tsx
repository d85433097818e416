import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { rememberReturnPath, returnPathFromSearch } from '@/lib/return-to';
import { discordAuthorizeUrl, usePublicConfig } from '../api/auth-api';

function DiscordIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" className="size-4">
      <path d="M20.32 4.37A19.8 19.8 0 0 0 15.43 2.85a.07.07 0 0 0-.08.04c-.21.38-.44.87-.6 1.25a18.3 18.3 0 0 0-5.49 0 12.6 12.6 0 0 0-.62-1.25.08.08 0 0 0-.08-.04 19.7 19.7 0 0 0-4.88 1.52.07.07 0 0 0-.03.03C.53 9.05-.32 13.58.1 18.06a.08.08 0 0 0 .03.06 19.9 19.9 0 0 0 5.99 3.03.08.08 0 0 0 .08-.03c.46-.63.87-1.29 1.23-1.99a.08.08 0 0 0-.04-.1 13.1 13.1 0 0 1-1.87-.9.08.08 0 0 1 0-.12l.37-.29a.07.07 0 0 1 .08-.01c3.93 1.8 8.18 1.8 12.06 0a.07.07 0 0 1 .08.01l.37.29a.08.08 0 0 1 0 .12c-.6.35-1.22.65-1.87.9a.08.08 0 0 0-.04.1c.36.7.78 1.36 1.23 1.99a.08.08 0 0 0 .08.03 19.8 19.8 0 0 0 6-3.03.08.08 0 0 0 .03-.06c.5-5.18-.84-9.67-3.55-13.66a.06.06 0 0 0-.03-.03ZM8.02 15.33c-1.18 0-2.16-1.09-2.16-2.42 0-1.33.96-2.42 2.16-2.42 1.21 0 2.18 1.1 2.16 2.42 0 1.33-.96 2.42-2.16 2.42Zm7.97 0c-1.18 0-2.15-1.09-2.15-2.42 0-1.33.95-2.42 2.15-2.42 1.22 0 2.18 1.1 2.16 2.42 0 1.33-.94 2.42-2.16 2.42Z" />
    </svg>
  );
}

/** "Continue with Discord": asks the server for the authorize URL, then leaves the app. */
export function DiscordButton({ onError }: { onError: (message: string) => void }) {
  const { t } = useTranslation('auth');
  const { data: config } = usePublicConfig();
  const [busy, setBusy] = useState(false);
  const configured = config?.discord.configured ?? false;

  async function start() {
    setBusy(true);
    try {
      const { url } = await discordAuthorizeUrl('login');
      // Discord leaves the app: the page to come back to waits for the callback in sessionStorage.
      rememberReturnPath(returnPathFromSearch(window.location.search));
      window.location.href = url;
    } catch (err) {
      onError(errorMessage(err, t('errors.discordFailed')));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2">
      <Button type="button" variant="discord" className="w-full" disabled={!configured || busy} onClick={() => void start()} data-testid="discord-login">
        <DiscordIcon />
        {busy ? t('signIn.redirecting') : t('signIn.discord')}
      </Button>
      {config && !configured && (
        <p className="text-center text-xs text-muted-foreground" data-testid="discord-unavailable">
          {t('signIn.discordUnavailable')}
        </p>
      )}
    </div>
  );
}
