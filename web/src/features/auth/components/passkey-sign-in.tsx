import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser';
import { Fingerprint } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { isPasskeyCancel } from '@/lib/passkeys';
import { passkeySignIn, passkeySignInOptions } from '../api/auth-api';
import { useFinishSignIn } from './use-finish-sign-in';

/** Below the 5 minutes a sign-in challenge lasts. */
const AUTOFILL_RENEW_MS = 4 * 60 * 1000;

/**
 * Signing in with a passkey (docs/security.md "Passkeys"): the browser's dialog from the button,
 * or its autofill on the email field (conditional UI, where the browser has it: the email input
 * has autocomplete="username webauthn"). Either is a full sign-in, no password and no code.
 */
export function usePasskeySignIn(onError: (message: string | null) => void) {
  const { t } = useTranslation('passkeys');
  const signedIn = useFinishSignIn();
  const [busy, setBusy] = useState(false);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  async function run(autofill: boolean, chosen: () => void = () => {}) {
    const { ticket, options } = await passkeySignInOptions();
    const response = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
    chosen();
    setBusy(true);
    await signedIn(await passkeySignIn(ticket, response));
  }

  const report = (err: unknown, fromButton: boolean) => {
    // The autofill ceremony is cancelled whenever the button starts one: not an error, and not the button's.
    if (isPasskeyCancel(err)) {
      if (fromButton) setBusy(false);
      return;
    }
    setBusy(false);
    onErrorRef.current(errorMessage(err, t('signIn.failed')));
  };

  // Conditional UI: offered in the email field's suggestions while the page is open, except during
  // the button's own ceremony (starting one cancels the other: SimpleWebAuthn's abort service).
  const live = useRef(true);
  const buttonCeremony = useRef(false);
  const offerAutofill = () => {
    void browserSupportsWebAuthnAutofill().then((supported) => {
      if (!supported || !live.current || buttonCeremony.current) return;
      // Until a passkey is picked from the suggestions, nothing was asked of the user: failing to
      // offer them (the server busy, the browser declining) stays silent, and the page's own
      // message ("your password is changed") stays in view.
      let picked = false;
      run(true, () => (picked = true)).catch((err: unknown) => live.current && picked && report(err, false));
    });
  };

  useEffect(() => {
    live.current = true;
    offerAutofill();
    // A challenge lasts 5 minutes (docs/security.md "Passkeys"): the offer is renewed before it expires.
    const renew = window.setInterval(offerAutofill, AUTOFILL_RENEW_MS);
    return () => {
      live.current = false;
      window.clearInterval(renew);
      WebAuthnAbortService.cancelCeremony();
    };
    // Once per visit of the page.
  }, []);

  const signInWithButton = () => {
    onError(null);
    setBusy(true);
    buttonCeremony.current = true;
    run(false).catch((err: unknown) => {
      buttonCeremony.current = false;
      report(err, true);
      offerAutofill();
    });
  };

  return { supported: browserSupportsWebAuthn(), busy, signInWithButton };
}

export function PasskeyButton({ onError }: { onError: (message: string | null) => void }) {
  const { t } = useTranslation('passkeys');
  const { supported, busy, signInWithButton } = usePasskeySignIn(onError);
  if (!supported) return null;
  return (
    <Button type="button" variant="outline" className="w-full" size="lg" disabled={busy} onClick={signInWithButton} data-testid="passkey-sign-in">
      {busy ? <Spinner /> : <Fingerprint />}
      {t('signIn.button')}
    </Button>
  );
}
