import { Smartphone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CardHeading } from '@/components/ui/card-heading';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorMessage } from '@/lib/api-client';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup, type TwoFactorSetup, useTwoFactor } from './two-factor-api';

/** Two-factor codes of the account (docs/security.md): set up with a QR code, recovery codes shown once, turn off with a code. */
export function TwoFactorCard() {
  const { t } = useTranslation('security');
  const { data: status, mutate } = useTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      toast.error(errorMessage(err, t('twoFactor.failed')));
    } finally {
      setBusy(false);
    }
  }

  const begin = () =>
    run(async () => {
      setSetup(await startTwoFactorSetup());
      setCode('');
    });

  const enable = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const { recovery_codes } = await enableTwoFactor(code.trim());
      setRecovery(recovery_codes);
      setSetup(null);
      setCode('');
      toast.success(t('twoFactor.enabled'));
      await mutate();
    });
  };

  const disable = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      await disableTwoFactor(code.trim());
      setCode('');
      toast.success(t('twoFactor.disabled'));
      await mutate();
    });
  };

  return (
    <Card className="gap-4" data-testid="two-factor-card">
      <CardHeader>
        <CardHeading className="flex items-center gap-2 text-base">
          <Smartphone className="size-4" />
          {t('twoFactor.title')}
          {status?.enabled && <Badge data-testid="two-factor-on">{t('twoFactor.on')}</Badge>}
        </CardHeading>
        <CardDescription>{t('twoFactor.description')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {recovery && (
          <Alert className="block space-y-2 border-primary/40" data-testid="two-factor-recovery">
            <p className="font-medium">{t('twoFactor.recoveryTitle')}</p>
            <p className="text-sm text-muted-foreground">{t('twoFactor.recoveryHint')}</p>
            <ul className="grid grid-cols-2 gap-1 font-mono text-sm" data-testid="two-factor-recovery-codes">
              {recovery.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <div className="flex gap-2">
              <CopyButton value={recovery.join('\n')} label={t('twoFactor.copy')} copiedLabel={t('twoFactor.copied')} />
              <Button variant="outline" size="sm" onClick={() => setRecovery(null)} data-testid="two-factor-recovery-done">
                {t('twoFactor.done')}
              </Button>
            </div>
          </Alert>
        )}

        {status && !status.enabled && !setup && (
          <Button onClick={() => void begin()} disabled={busy} data-testid="two-factor-setup">
            {t('twoFactor.setUp')}
          </Button>
        )}

        {setup && (
          <form onSubmit={(e) => void enable(e)} className="space-y-3" data-testid="two-factor-setup-form">
            <p className="text-sm">{t('twoFactor.scan')}</p>
            <img src={setup.qr_data_url} alt={t('twoFactor.qrAlt')} width={200} height={200} className="rounded-md border bg-white" data-testid="two-factor-qr" />
            <p className="text-sm text-muted-foreground">
              {t('twoFactor.manual')} <code className="break-all font-mono" data-testid="two-factor-secret">{setup.secret}</code>
            </p>
            <div className="grid gap-1.5 sm:max-w-xs">
              <Label htmlFor="two-factor-enable-code">{t('twoFactor.firstCode')}</Label>
              <Input id="two-factor-enable-code" autoComplete="one-time-code" inputMode="numeric" required maxLength={40} value={code} onChange={(e) => setCode(e.target.value)} data-testid="two-factor-enable-code" />
            </div>
            <div className="flex gap-2">
              <Button type="submit" disabled={busy || !code.trim()} data-testid="two-factor-enable">
                {t('twoFactor.turnOn')}
              </Button>
              <Button type="button" variant="ghost" onClick={() => setSetup(null)}>
                {t('twoFactor.cancel')}
              </Button>
            </div>
          </form>
        )}

        {status?.enabled && (
          <form onSubmit={(e) => void disable(e)} className="space-y-3" data-testid="two-factor-disable-form">
            <p className="text-sm text-muted-foreground" data-testid="two-factor-left">
              {t('twoFactor.recoveryLeft', { count: status.recovery_codes_left })}
            </p>
            <div className="grid gap-1.5 sm:max-w-xs">
              <Label htmlFor="two-factor-disable-code">{t('twoFactor.codeToTurnOff')}</Label>
              <Input id="two-factor-disable-code" autoComplete="one-time-code" required maxLength={40} value={code} onChange={(e) => setCode(e.target.value)} data-testid="two-factor-disable-code" />
            </div>
            <Button type="submit" variant="outline" disabled={busy || !code.trim()} data-testid="two-factor-disable">
              {t('twoFactor.turnOff')}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
