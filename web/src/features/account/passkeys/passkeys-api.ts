import type { Static } from '@sinclair/typebox';
import { type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON, startRegistration } from '@simplewebauthn/browser';
import useSWR from 'swr';
import { api } from '@/lib/api-client';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { PasskeyOut } from '../../../../../server/routes/passkeys/index.ts';

/** A passkey of the account as the API lists it (docs/security.md "Passkeys"). */
export type Passkey = Static<typeof PasskeyOut>;

export const PASSKEYS_KEY = '/api/account/passkeys';

export const usePasskeys = () => useSWR<Passkey[]>(PASSKEYS_KEY);
export const renamePasskey = (id: string, name: string) => api.put<{ ok: boolean }>(`${PASSKEYS_KEY}/${encodeURIComponent(id)}`, { name });
export const removePasskey = (id: string) => api.delete<{ ok: boolean }>(`${PASSKEYS_KEY}/${encodeURIComponent(id)}`);

/** Asks the browser for a new passkey (its own dialog) and adds it to the account under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  const { ticket, options } = await api.post<{ ticket: string; options: PublicKeyCredentialCreationOptionsJSON }>(`${PASSKEYS_KEY}/registration-options`, {});
  const response: RegistrationResponseJSON = await startRegistration({ optionsJSON: options });
  return api.post<Passkey>(PASSKEYS_KEY, { ticket, name, response });
}
