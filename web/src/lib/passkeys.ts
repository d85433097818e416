import { WebAuthnError } from '@simplewebauthn/browser';

/** The person closed the browser's passkey dialog, it timed out, or another ceremony replaced it: nothing to report. */
export function isPasskeyCancel(err: unknown): boolean {
  if (err instanceof WebAuthnError) return err.code === 'ERROR_CEREMONY_ABORTED' || (err.cause as Error | undefined)?.name === 'NotAllowedError';
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');
}
