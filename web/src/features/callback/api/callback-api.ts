import { api } from '@/lib/api-client';
import type { LoginResponse } from '@/lib/session';

/** First Discord sign-in: the account exists but needs an email, a password and a time zone. */
export interface SetupRequired {
  status: 'setup_required';
  needs_setup: true;
  account_id: string;
  discord_email: string | null;
  discord_username: string;
}

export type CallbackResponse = LoginResponse | SetupRequired;

export interface SetupPayload {
  account_id: string;
  email: string;
  username: string;
  password: string;
  timezone: string;
}

export function isSetupRequired(body: CallbackResponse): body is SetupRequired {
  const b = body as Partial<SetupRequired>;
  return b.status === 'setup_required' || b.needs_setup === true;
}

// The OAuth code is single-use: React's StrictMode runs effects twice in development, so the
// exchange for a given code is shared instead of being sent twice.
const exchanges = new Map<string, Promise<CallbackResponse>>();

/** POST /api/auth/discord/callback (cookies go along: the OAuth state cookie is checked). */
export function exchangeCode(code: string, state: string | null): Promise<CallbackResponse> {
  let pending = exchanges.get(code);
  if (!pending) {
    pending = api.post<CallbackResponse>('/api/auth/discord/callback', { code, state: state ?? undefined }, { redirectOn401: false });
    exchanges.set(code, pending);
  }
  return pending;
}

/** POST /api/auth/discord/setup (the setup cookie from the callback goes along). */
export const completeSetup = (payload: SetupPayload) => api.post<LoginResponse>('/api/auth/discord/setup', payload, { redirectOn401: false });
