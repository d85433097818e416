import { BellRing, Hash, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Decorative mock of a reminder arriving in a Discord channel and a webhook log. */
export function DeliveryPreview() {
  const { t } = useTranslation('landing');
  return (
    <div className="relative" aria-hidden="true">
      <div className="absolute -inset-6 -z-10 rounded-[2rem] bg-brand-gradient opacity-20 blur-3xl dark:opacity-25" />
      <div className="overflow-hidden rounded-2xl border bg-card shadow-2xl shadow-primary/10">
        <div className="flex items-center gap-2 border-b bg-muted/50 px-4 py-3">
          <span className="size-2.5 rounded-full bg-red-400/80" />
          <span className="size-2.5 rounded-full bg-yellow-400/80" />
          <span className="size-2.5 rounded-full bg-green-400/80" />
          <span className="ml-3 flex items-center gap-1 text-xs font-medium text-muted-foreground">
            <Hash className="size-3.5" />
            {t('preview.channel')}
          </span>
        </div>
        <div className="space-y-5 p-5">
          <div className="flex gap-3">
            <span className="grid size-10 shrink-0 place-items-center rounded-full bg-brand-gradient text-white">
              <BellRing className="size-5" />
            </span>
            <div className="min-w-0 space-y-1">
              <div className="flex flex-wrap items-baseline gap-2">
                <span className="font-semibold">Chime</span>
                <span className="rounded bg-[#5865F2] px-1 py-px text-[10px] font-semibold text-white">{t('preview.bot')}</span>
                <span className="text-xs text-muted-foreground">{t('preview.time')}</span>
              </div>
              <p className="text-sm">
                <span className="rounded bg-primary/15 px-1 font-medium text-primary">@{t('preview.role')}</span> {t('preview.message')}
              </p>
              <div className="mt-2 rounded-md border-l-4 border-primary bg-muted/60 px-3 py-2 text-xs text-muted-foreground">
                {t('preview.recurrence')}
              </div>
            </div>
          </div>
          <div className="rounded-lg border bg-background/60 p-3 font-mono text-xs">
            <div className="mb-2 flex items-center gap-2 font-sans text-xs font-medium text-muted-foreground">
              <Webhook className="size-3.5" />
              {t('preview.webhook')}
            </div>
            <div className="flex items-center justify-between gap-2">
              <span className="truncate">
                <span className="text-green-700 dark:text-green-400">POST</span> https://hooks.example.com/ops
              </span>
              <span className="rounded bg-success/15 px-1.5 py-0.5 text-success">200</span>
            </div>
            <div className="mt-1 text-muted-foreground">09:00:00.004 UTC</div>
          </div>
        </div>
      </div>
    </div>
  );
}
