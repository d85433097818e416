import { Check, Globe2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { TimezoneCombobox } from '@/components/timezone-combobox';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Label } from '@/components/ui/label';
import { type Account, updateTimezone } from '@/lib/api/reminders';
import { errorDetail } from '@/lib/api-client';
import { formatTime } from '@/lib/format';
import { timeZoneLabel } from '@/lib/time-zone-label';
import { timezonesWith } from '@/lib/timezones';

/** Saves on change; a failure reverts the selection (docs/dashboard.md "Forms"). */
export function TimezoneCard({ timezone, onUpdated }: { timezone: string; onUpdated: (next: Account) => void }) {
  const { t } = useTranslation('account');
  const [value, setValue] = useState(timezone);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => setValue(timezone), [timezone]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), 2500);
    return () => clearTimeout(timer);
  }, [saved]);

  // The full list everywhere (issue 27 #12); a zone stored under another spelling stays visible.
  const options = timezonesWith(value);

  async function change(next: string) {
    if (next === value) return;
    const previous = value;
    setValue(next);
    setSaving(true);
    setSaved(false);
    try {
      const account = await updateTimezone(next);
      onUpdated(account);
      setSaved(true);
      toast.success(t('timezone.saved', { zone: timeZoneLabel(next) }));
    } catch (err) {
      console.error('Failed to update timezone', err);
      setValue(previous);
      toast.error(t('errors.timezone'), { description: errorDetail(err) ?? undefined });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card className="gap-5" data-testid="timezone-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <Globe2 className="size-4 text-primary" />
          {t('timezone.title')}
        </CardHeading>
        <CardDescription>{t('timezone.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <Label htmlFor="account-timezone" className="sr-only">
          {t('timezone.label')}
        </Label>
        <div className="flex items-center gap-3">
          <TimezoneCombobox
            id="account-timezone"
            className="sm:max-w-sm"
            value={value}
            onChange={(v) => void change(v)}
            timezones={options}
            disabled={saving}
          />
          <span className="flex size-5 shrink-0 items-center justify-center" aria-live="polite">
            {saving ? (
              <span className="size-4 animate-spin rounded-full border-2 border-primary/30 border-t-primary" role="status" aria-label={t('actions.saving')} />
            ) : saved ? (
              <Check className="size-4 text-success" aria-label={t('timezone.savedShort')} data-testid="timezone-saved" />
            ) : null}
          </span>
        </div>
        <p className="text-sm text-muted-foreground" data-testid="timezone-now">
          {t('timezone.currentTime', { time: formatTime(now, value) })}
        </p>
      </CardContent>
    </Card>
  );
}
