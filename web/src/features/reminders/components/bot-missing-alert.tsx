import { Bot, ExternalLink, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

interface BotMissingAlertProps {
  guildName: string;
  /** A recheck is under way. */
  loading: boolean;
  onInvite: () => void;
  onRecheck: () => void;
}

/** The chosen server lacks the bot: Invite it, then Check again. */
export function BotMissingAlert({ guildName, loading, onInvite, onRecheck }: BotMissingAlertProps) {
  const { t } = useTranslation('destinations');
  return (
    <Alert variant="info" className="mt-3" data-testid="bot-missing">
      <Bot />
      <div className="min-w-0 flex-1 space-y-3">
        <div className="space-y-1">
          <p className="font-medium">{t('picker.botMissing.title')}</p>
          <p className="text-muted-foreground">{t('picker.botMissing.description', { guild: guildName })}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" variant="discord" onClick={onInvite} data-testid="invite-bot">
            <ExternalLink />
            {t('picker.botMissing.invite')}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={onRecheck} disabled={loading} data-testid="recheck-bot">
            <RefreshCw className={cn(loading && 'animate-spin')} />
            {t('picker.botMissing.recheck')}
          </Button>
        </div>
      </div>
    </Alert>
  );
}
