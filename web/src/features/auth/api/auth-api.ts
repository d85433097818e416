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
  public_url: string;
  version: string;
}

export const loginRequest = (payload: LoginPayload) => api.post<LoginResponse>('/api/auth/login', payload);
export const registerRequest = (payload: RegisterPayload) => api.post<unknown>('/api/auth/register', payload);

/** The server builds the Discord authorize URL (and sets the OAuth state cookie). */
export const discordAuthorizeUrl = (mode: 'login' | 'link' = 'login') =>
  api.get<{ url: string }>(`/api/auth/discord/authorize-url?mode=${mode}`, { redirectOn401: false });

export function usePublicConfig() {
  return useSWR<PublicConfig>('/api/config', { revalidateOnFocus: false });
}
