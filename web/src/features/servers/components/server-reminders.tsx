import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { actOnServerReminder, type ServerAction, type ServerReminder } from '../api/servers-api';

const channelOf = (r: ServerReminder) => r.destinations.map((d) => `#${d.metadata.channel_name ?? d.metadata.channel_id ?? ''}`).join(', ');
const creatorOf = (r: ServerReminder) => r.created_by.username ?? r.created_by.discord_user_id ?? '?';

// Literal keys, so the locale check sees each one used.
const ACTION_LABEL = { pause: 'actions.pause', resume: 'actions.resume', 'take-over': 'actions.take-over', delete: 'actions.delete' } as const;
const ACTION_DONE = { pause: 'actions.done.pause', resume: 'actions.done.resume', 'take-over': 'actions.done.take-over', delete: 'actions.done.delete' } as const;
const CONFIRM_TITLE = { pause: 'confirm.pause.title', resume: 'confirm.resume.title', 'take-over': 'confirm.take-over.title', delete: 'confirm.delete.title' } as const;
const CONFIRM_TEXT = {
  pause: 'confirm.pause.description',
  resume: 'confirm.resume.description',
  'take-over': 'confirm.take-over.description',
  delete: 'confirm.delete.description',
} as const;
const STATUS = { active: 'status.active', paused: 'status.paused', completed: 'status.completed' } as const;

interface Pending {
  reminder: ServerReminder;
  action: ServerAction;
}

interface ServerRemindersProps {
  guildId: string;
  /** The pages loaded so far, newest first. */
  reminders: ServerReminder[];
  /** Older reminders remain (the last page's next_cursor): "Load more" adds the next 100, the filters kept. */
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onChanged: () => void;
}

/** The server's reminders for its managers: filters, and each action behind a confirmation saying what the creator will see. */
export function ServerReminders({ guildId, reminders, hasMore, loadingMore, onLoadMore, onChanged }: ServerRemindersProps) {
  const { t } = useTranslation('servers');
  const [channel, setChannel] = useState('');
  const [creator, setCreator] = useState('');
  const [status, setStatus] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  const channels = [...new Set(reminders.flatMap((r) => r.destinations.map((d) => d.metadata.channel_id ?? '')))];
  const channelName = (id: string) => reminders.flatMap((r) => r.destinations).find((d) => d.metadata.channel_id === id)?.metadata.channel_name ?? id;
  const creators = [...new Set(reminders.map(creatorOf))];
  const shown = reminders.filter(
    (r) => (!channel || r.destinations.some((d) => d.metadata.channel_id === channel)) && (!creator || creatorOf(r) === creator) && (!status || r.status === status),
  );

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      await actOnServerReminder(guildId, pending.reminder.id, pending.action);
      toast.success(t(ACTION_DONE[pending.action]));
      setPending(null);
      onChanged();
    } catch (error) {
      toast.error(errorMessage(error, t('actions.failed')));
    } finally {
      setBusy(false);
    }
  }

  const select = 'h-9 rounded-md border bg-background px-2 text-sm';
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-4" data-testid="server-reminder-filters">
        <div className="flex flex-col gap-1">
          <Label htmlFor="filter-channel">{t('filters.channel')}</Label>
          <select id="filter-channel" className={select} value={channel} onChange={(e) => setChannel(e.target.value)}>
            <option value="">{t('filters.all')}</option>
            {channels.map((id) => (
              <option key={id} value={id}>
                #{channelName(id)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="filter-creator">{t('filters.creator')}</Label>
          <select id="filter-creator" className={select} value={creator} onChange={(e) => setCreator(e.target.value)}>
            <option value="">{t('filters.all')}</option>
            {creators.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="filter-status">{t('filters.status')}</Label>
          <select id="filter-status" className={select} value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">{t('filters.all')}</option>
            <option value="active">{t('status.active')}</option>
            <option value="paused">{t('status.paused')}</option>
            <option value="completed">{t('status.completed')}</option>
          </select>
        </div>
      </div>
      {shown.length === 0 ? (
        <p className="text-muted-foreground" data-testid="server-reminders-empty">
          {t('reminders.empty')}
        </p>
      ) : (
        <ul className="space-y-3" data-testid="server-reminders">
          {shown.map((r) => (
            <li key={r.id}>
              <Card className="gap-2 p-4" data-testid="server-reminder" data-id={r.id}>
                <div className="flex flex-wrap items-center gap-2">
                  <span className="min-w-0 flex-1 font-medium break-words">{r.message}</span>
                  <Badge variant={r.status === 'active' ? 'success' : r.status === 'paused' ? 'warning' : 'secondary'}>{t(STATUS[r.status])}</Badge>
                  {!r.created_by.still_member && <Badge variant="destructive">{t('reminders.formerMember')}</Badge>}
                </div>
                <p className="text-sm text-muted-foreground">
                  {t('reminders.meta', { channel: channelOf(r), creator: creatorOf(r), when: r.recurrence_text })}
                </p>
                <div className="flex flex-wrap gap-2">
                  {r.status === 'paused' ? (
                    <Button size="sm" variant="outline" onClick={() => setPending({ reminder: r, action: 'resume' })} data-testid="action-resume">
                      {t('actions.resume')}
                    </Button>
                  ) : (
                    <Button size="sm" variant="outline" onClick={() => setPending({ reminder: r, action: 'pause' })} data-testid="action-pause" disabled={r.status === 'completed'}>
                      {t('actions.pause')}
                    </Button>
                  )}
                  <Button size="sm" variant="outline" onClick={() => setPending({ reminder: r, action: 'take-over' })} data-testid="action-take-over">
                    {t('actions.take-over')}
                  </Button>
                  <Button size="sm" variant="destructive" onClick={() => setPending({ reminder: r, action: 'delete' })} data-testid="action-delete">
                    {t('actions.delete')}
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {hasMore && (
        <Button variant="outline" className="w-full" onClick={onLoadMore} disabled={loadingMore} data-testid="server-reminders-more">
          {t('reminders.loadMore')}
        </Button>
      )}
      <AlertDialog open={pending !== null} onOpenChange={(open) => !open && !busy && setPending(null)}>
        <AlertDialogContent data-testid="server-action-confirm">
          <AlertDialogHeader>
            <AlertDialogTitle>{pending ? t(CONFIRM_TITLE[pending.action]) : ''}</AlertDialogTitle>
            <AlertDialogDescription data-testid="server-action-description">
              {pending ? t(CONFIRM_TEXT[pending.action], { creator: creatorOf(pending.reminder), channel: channelOf(pending.reminder) }) : ''}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>{t('confirm.cancel')}</AlertDialogCancel>
            <button
              type="button"
              className={cn(buttonVariants({ variant: pending?.action === 'delete' ? 'destructive' : 'default' }))}
              disabled={busy}
              aria-busy={busy}
              onClick={() => void confirm()}
              data-testid="server-action-confirm-button"
            >
              {pending ? t(ACTION_LABEL[pending.action]) : ''}
            </button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
