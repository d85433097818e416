import { CalendarDays, PowerOff, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { disableCalendarFeed, getCalendarFeed, rotateCalendarFeed } from '../api/transfer-api';

/** The account's calendar feed: a secret address calendar apps subscribe to (docs/time.md "Calendar feed"). */
export function CalendarFeedCard() {
  const { t } = useTranslation('portability');
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<string | null>, done?: string) {
    setBusy(true);
    try {
      setUrl(await action());
      if (done) toast.success(done);
    } catch (err) {
      toast.error(errorMessage(err, t('feed.failed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="gap-4" data-testid="calendar-feed-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <CalendarDays className="size-4" />
          {t('feed.title')}
        </CardHeading>
        <CardDescription>{t('feed.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {url ? (
          <>
            <div className="flex gap-2">
              <Input readOnly value={url} aria-label={t('feed.address')} data-testid="calendar-feed-url" onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
              <CopyButton value={url} label={t('feed.copy')} copiedLabel={t('feed.copied')} />
            </div>
            <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
              <li>{t('feed.howGoogle')}</li>
              <li>{t('feed.howApple')}</li>
              <li>{t('feed.howThunderbird')}</li>
            </ul>
            <p className="text-sm text-muted-foreground">{t('feed.secret')}</p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" disabled={busy} onClick={() => void run(async () => (await rotateCalendarFeed()).url, t('feed.rotated'))} data-testid="calendar-feed-rotate">
                <RefreshCw />
                {t('feed.rotate')}
              </Button>
              <Button
                variant="outline"
                disabled={busy}
                onClick={() =>
                  void run(async () => {
                    await disableCalendarFeed();
                    return null;
                  }, t('feed.disabled'))
                }
                data-testid="calendar-feed-disable"
              >
                <PowerOff />
                {t('feed.disable')}
              </Button>
            </div>
          </>
        ) : (
          <Button disabled={busy} onClick={() => void run(async () => (await getCalendarFeed()).url)} data-testid="calendar-feed-show">
            <CalendarDays />
            {t('feed.show')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
