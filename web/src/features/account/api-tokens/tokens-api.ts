import type { Static } from '@sinclair/typebox';
import useSWR from 'swr';
import { api } from '@/lib/api-client';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { AccessTokenOut, NewAccessTokenBody } from '../../../../../server/routes/tokens/index.ts';

/** A personal access token of the account as the API lists it (docs/api.md). */
export type AccessToken = Static<typeof AccessTokenOut>;

export type TokenScope = AccessToken['scopes'][number];

/** What the card sends to create one: the expiry always said, null for none. */
export type NewAccessToken = Required<Static<typeof NewAccessTokenBody>> & { scopes: TokenScope[] };

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
