import useSWR from 'swr';
import { api } from '@/lib/api-client';

/** The personal access tokens of the account (docs/api.md). */
export type TokenScope = 'reminders:read' | 'reminders:write';

export interface AccessToken {
  id: string;
  name: string;
  scopes: TokenScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface NewAccessToken {
  name: string;
  scopes: TokenScope[];
  expires_in_days: number | null;
}

export const TOKENS_KEY = '/api/tokens';
export const MAX_TOKENS = 20;
export const MAX_TOKEN_NAME = 100;
/** The expiries offered; the API takes any whole number of days from 1 to 365, or none. */
export const EXPIRY_CHOICES = [7, 30, 90, 365, null] as const;
export const DEFAULT_EXPIRY = 90;
/** Where the generated API reference is served. */
export const API_DOCS_PATH = '/api/docs';

export const useAccessTokens = () => useSWR<AccessToken[]>(TOKENS_KEY);
export const createAccessToken = (body: NewAccessToken) => api.post<AccessToken & { token: string }>(TOKENS_KEY, body);
export const revokeAccessToken = (id: string) => api.delete<{ ok: boolean }>(`${TOKENS_KEY}/${encodeURIComponent(id)}`);
