import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import useSWR from 'swr';
import { api } from '@/lib/api-client';
import type { LoginResponse } from '@/lib/session';

export interface LoginPayload {
  email: string;
  password: string;
  remember_me: boolean;
}

export interface RegisterPayload {
  email: string;
  username: string;
  password: string;
  timezone: string;
}

export interface PublicConfig {
  discord: { configured: boolean; client_id: string | null; authorize_url: string | null; redirect_uri: string; scopes: string[]; missing: string[] };
  /** SMTP set up: password reset by mail; otherwise the administrator makes a link (npm run admin). */
  email: { configured: boolean; missing: string[] };
  public_url: string;
  version: string;
}

/** With two-factor codes on, the password answers a ticket for the code step (docs/security.md). */
export type TwoFactorRequired = { two_factor_required: true; ticket: string };
export const loginRequest = (payload: LoginPayload) => api.post<LoginResponse | TwoFactorRequired>('/api/auth/login', payload);
export const twoFactorLoginRequest = (ticket: string, code: string) => api.post<LoginResponse>('/api/auth/two-factor', { ticket, code });
/** A passkey sign-in (docs/security.md "Passkeys"): options with their ticket, then the authenticator's answer. */
export const passkeySignInOptions = () =>
  api.post<{ ticket: string; options: PublicKeyCredentialRequestOptionsJSON }>('/api/auth/passkey/options', {}, { redirectOn401: false });
export const passkeySignIn = (ticket: string, response: AuthenticationResponseJSON) =>
  api.post<LoginResponse>('/api/auth/passkey', { ticket, response }, { redirectOn401: false });
export const registerRequest = (payload: RegisterPayload) => api.post<unknown>('/api/auth/register', payload);

/** Mails a reset link if an account has this email; the answer is the same either way. */
export const requestPasswordReset = (email: string) => api.post<{ ok: boolean }>('/api/auth/password-reset', { email });
/** Sets the password with the link's token; every session of the account is signed out. */
export const confirmPasswordReset = (token: string, password: string) => api.post<{ ok: boolean }>('/api/auth/password-reset/confirm', { token, password });
/** Confirms an address for email reminders (the link mailed to it); works signed in or not. */
export const confirmEmailAddress = (token: string) => api.post<{ address: string }>('/api/email/confirm', { token });

/** The server builds the Discord authorize URL (and sets the OAuth state cookie). */
export const discordAuthorizeUrl = (mode: 'login' | 'link' = 'login') =>
  api.get<{ url: string }>(`/api/auth/discord/authorize-url?mode=${mode}`, { redirectOn401: false });

export function usePublicConfig() {
  return useSWR<PublicConfig>('/api/config', { revalidateOnFocus: false });
}
