import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Link } from 'wouter';
import { ReminderStatusBadge } from '@/components/reminder-status-badge';
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { deleteReminder, pauseReminder, type Reminder, resumeReminder } from '@/lib/api/reminders';
import { reminderStatus } from '@/lib/reminder-status';
import { cn } from '@/lib/utils';

/** The channels of this server a reminder posts in. */
const channelsHere = (r: Reminder, guildId: string) =>
  r.destinations
    .filter((d) => d.type === 'discord_channel' && d.metadata.guild_id === guildId)
    .map((d) => `#${d.metadata.channel_name ?? d.metadata.channel_id ?? ''}`)
    .join(', ');

/**
 * The account's own reminders posting in this server (GET /api/servers/:guildId/my-reminders),
 * whole, with the usual actions through the reminders routes: pause or resume, delete (confirmed),
 * and the details page for the rest.
 */
export function MyServerReminders({ guildId, reminders, onChanged }: { guildId: string; reminders: Reminder[]; onChanged: () => void }) {
  const { t } = useTranslation('servers');
  const [deleting, setDeleting] = useState<Reminder | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(call: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await call();
      toast.success(done);
      setDeleting(null);
      onChanged();
    } catch (error) {
      toast.error(errorMessage(error, t('actions.failed')));
    } finally {
      setBusy(false);
    }
  }

  if (reminders.length === 0) {
    return (
      <p className="text-muted-foreground" data-testid="my-server-reminders-empty">
        {t('mine.empty')}
      </p>
    );
  }
  return (
    <>
      <ul className="space-y-3" data-testid="my-server-reminders">
        {reminders.map((r) => {
          const status = reminderStatus(r);
          return (
            <li key={r.id}>
              <Card className="gap-2 p-4" data-testid="my-server-reminder" data-id={r.id}>
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={`/reminders/${r.id}`} className="min-w-0 flex-1 font-medium break-words hover:underline">
                    {r.message}
                  </Link>
                  <ReminderStatusBadge status={status} />
                </div>
                <p className="text-sm text-muted-foreground">{t('mine.meta', { channel: channelsHere(r, guildId), when: r.recurrence_text })}</p>
                <div className="flex flex-wrap gap-2">
                  {status === 'paused' ? (
                    <Button size="sm" variant="outline" disabled={busy} onClick={() => void act(() => resumeReminder(r.id), t('mine.resumed'))} data-testid="my-action-resume">
                      {t('actions.resume')}
                    </Button>
                  ) : (
                    <Button size="sm" variant="outline" disabled={busy || status === 'completed'} onClick={() => void act(() => pauseReminder(r.id), t('mine.paused'))} data-testid="my-action-pause">
                      {t('actions.pause')}
                    </Button>
                  )}
                  <Link href={`/reminders/${r.id}`} className={cn(buttonVariants({ size: 'sm', variant: 'outline' }))}>
                    {t('mine.open')}
                  </Link>
                  <Button size="sm" variant="destructive" disabled={busy} onClick={() => setDeleting(r)} data-testid="my-action-delete">
                    {t('mine.delete')}
                  </Button>
                </div>
              </Card>
            </li>
          );
        })}
      </ul>
      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && !busy && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('mine.confirmDelete.title')}</AlertDialogTitle>
            <AlertDialogDescription>{t('mine.confirmDelete.description', { message: deleting?.message ?? '' })}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>{t('confirm.cancel')}</AlertDialogCancel>
            <button
              type="button"
              className={cn(buttonVariants({ variant: 'destructive' }))}
              disabled={busy}
              onClick={() => deleting && void act(() => deleteReminder(deleting.id), t('mine.deleted'))}
              data-testid="my-action-delete-confirm"
            >
              {t('mine.delete')}
            </button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
