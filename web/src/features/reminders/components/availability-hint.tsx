import { type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';
import { ConnectDiscordContext } from './connect-discord';
import type { Availability } from './use-destination-availability';

/** Why a kind of destination cannot be added (nothing while it can, or while that is still loading). */
export function AvailabilityHint({ availability, testId }: { availability: Availability; testId: string }) {
  const { t } = useTranslation('destinations');
  const connectDiscord = useContext(ConnectDiscordContext);
  if (availability.enabled || availability.reason === 'loading') return null;
  const text: Record<Exclude<typeof availability.reason, 'loading'>, ReactNode> = {
    limit: t('hints.limitReached'),
    notConfigured: t('hints.discordNotConfigured'),
    emailNotConfigured: t('hints.emailNotConfigured'),
    matrixNotConfigured: t('matrix:hint.notConfigured'),
    telegramNotConfigured: t('telegram:hint.notConfigured'),
    unavailable: t('hints.discordUnavailable'),
    noIdentity: connectDiscord ? (
      <button type="button" onClick={connectDiscord} className="font-medium text-primary underline-offset-4 hover:underline" data-testid="connect-discord">
        {t('hints.connectDiscord')}
      </button>
    ) : (
      <Link href="/account" className="font-medium text-primary underline-offset-4 hover:underline">
        {t('hints.connectDiscord')}
      </Link>
    ),
  };
  return (
    <p className={cn('pt-1 text-xs font-medium', availability.reason === 'limit' ? 'text-amber-700 dark:text-warning' : 'text-muted-foreground')} data-testid={testId} data-reason={availability.reason}>
      {text[availability.reason]}
    </p>
  );
}
