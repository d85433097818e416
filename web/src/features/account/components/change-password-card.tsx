import { CheckCircle2, LockKeyhole } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '@/components/password-input';
import { MIN_PASSWORD_LENGTH, PasswordStrength } from '@/components/password-strength';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { Label } from '@/components/ui/label';
import { changePassword } from '@/lib/api/reminders';
import { errorMessage } from '@/lib/api-client';
import { PASSWORD_SUCCESS_MS } from '../api/account-api';
import { Spinner } from '@/components/ui/spinner';

type Field = 'current' | 'next' | 'confirm';
type Errors = Partial<Record<Field | 'form', string>>;

export function ChangePasswordCard() {
  const { t } = useTranslation('account');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [success, setSuccess] = useState(false);

  // The success banner hides after 5 s (docs/dashboard.md "Forms").
  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(false), PASSWORD_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [success]);

  /** The rules in docs/dashboard.md "Forms", in order; the first failing rule is reported under its field. */
  function validate(): Errors {
    if (!current) return { current: t('validation.currentRequired') };
    if (!next) return { next: t('validation.newRequired') };
    if (next.length < MIN_PASSWORD_LENGTH) return { next: t('validation.passwordTooShort') };
    if (next !== confirm) return { confirm: t('validation.passwordsDontMatch') };
    if (next === current) return { next: t('validation.passwordUnchanged') };
    return {};
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSuccess(false);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setSuccess(true);
    } catch (err) {
      console.error('Failed to update password', err);
      setErrors({ form: errorMessage(err, t('errors.password')) });
    } finally {
      setSaving(false);
    }
  }

  const described = (field: Field) => (errors[field] ? `password-${field}-error` : undefined);
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`password-${field}-error`} className="text-sm text-destructive" data-testid={`password-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <Card className="gap-5" data-testid="change-password-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <LockKeyhole className="size-4 text-primary" />
          {t('password.title')}
        </CardHeading>
        <CardDescription>{t('password.description')}</CardDescription>
      </CardHeader>
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="change-password-form">
        <CardContent className="space-y-5">
          {success && (
            <Alert variant="success" data-testid="password-success">
              <CheckCircle2 />
              <span>{t('password.success')}</span>
            </Alert>
          )}
          {errors.form && (
            <Alert variant="destructive" data-testid="password-form-error">
              <span>{errors.form}</span>
            </Alert>
          )}
          <div className="space-y-2 sm:max-w-md">
            <Label htmlFor="password-current">{t('password.current')}</Label>
            <PasswordInput
              id="password-current"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              disabled={saving}
              aria-invalid={errors.current ? true : undefined}
              aria-describedby={described('current')}
            />
            {fieldError('current')}
          </div>
          <div className="grid gap-5 md:grid-cols-2">
            <div className="space-y-2">
              <Label htmlFor="password-next">{t('password.new')}</Label>
              <PasswordInput
                id="password-next"
                autoComplete="new-password"
                value={next}
                onChange={(e) => setNext(e.target.value)}
                disabled={saving}
                aria-invalid={errors.next ? true : undefined}
                aria-describedby={described('next')}
              />
              {fieldError('next')}
            </div>
            <div className="space-y-2">
              <Label htmlFor="password-confirm">{t('password.confirm')}</Label>
              <PasswordInput
                id="password-confirm"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                disabled={saving}
                aria-invalid={errors.confirm ? true : undefined}
                aria-describedby={described('confirm')}
              />
              {fieldError('confirm')}
            </div>
          </div>
          {next && <PasswordStrength password={next} compact className="sm:max-w-md" />}
        </CardContent>
        <CardFooter className="mt-5 justify-end">
          <Button type="submit" disabled={saving} className="w-full sm:w-auto" data-testid="password-submit">
            {saving && <Spinner />}
            {saving ? t('password.submitting') : t('password.submit')}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
