import { UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { type Account, updateEmail, updateUsername } from '@/lib/api/reminders';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { updateStoredUser } from '@/lib/session';
import { EMAIL_PATTERN } from '../api/account-api';
import { InlineEditField } from './inline-edit-field';

export function AccountInfoCard({ account, timezone, onUpdated }: { account: Account; timezone: string; onUpdated: (next: Account) => void }) {
  const { t } = useTranslation('account');

  return (
    <Card className="gap-5" data-testid="account-info">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <UserRound className="size-4 text-primary" />
          {t('info.title')}
        </CardHeading>
        <CardDescription>{t('info.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="divide-y">
          <InlineEditField
            name="username"
            label={t('info.username')}
            value={account.username}
            autoComplete="username"
            editLabel={t('info.editUsername')}
            validate={(v) => (v ? null : t('validation.usernameRequired'))}
            errorText={(err) => errorMessage(err, t('errors.username'))}
            onSave={async (username) => {
              const next = await updateUsername(username);
              updateStoredUser({ username: next?.username ?? username });
              onUpdated(next);
              // Confirmed like a saved time zone (timezone-card.tsx).
              toast.success(t('info.usernameSaved', { username: next?.username ?? username }));
            }}
          />
          <InlineEditField
            name="email"
            label={t('info.email')}
            value={account.email ?? ''}
            emptyText={t('info.noEmail')}
            type="email"
            autoComplete="email"
            editLabel={t('info.editEmail')}
            validate={(v) => (!v ? t('validation.emailRequired') : EMAIL_PATTERN.test(v) ? null : t('validation.emailInvalid'))}
            errorText={(err) => errorMessage(err, t('errors.email'))}
            onSave={async (email) => {
              const next = await updateEmail(email);
              updateStoredUser({ email: next?.email ?? email });
              onUpdated(next);
              toast.success(t('info.emailSaved', { email: next?.email ?? email }));
            }}
          />
          <div className="grid gap-1.5 py-4 last:pb-0 sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-4">
            <span className="text-sm font-medium text-muted-foreground">{t('info.created')}</span>
            <span className="font-medium" data-testid="account-created">
              {formatDate(account.created_at, timezone, 'long')}
            </span>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
