import type { Static } from '@sinclair/typebox';
import useSWR from 'swr';
import { api } from '@/lib/api-client';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { SessionOut } from '../../../../../server/routes/sessions/index.ts';

/** A signed-in session of the account as the API lists it (docs/security.md "Sessions"). */
export type AccountSession = Static<typeof SessionOut>;

export const SESSIONS_KEY = '/api/sessions';

export const useSessions = () => useSWR<AccountSession[]>(SESSIONS_KEY);
export const signOutSession = (id: string) => api.delete<{ ok: boolean }>(`${SESSIONS_KEY}/${encodeURIComponent(id)}`);
export const signOutOtherSessions = () => api.post<{ signed_out: number }>(`${SESSIONS_KEY}/sign-out-others`, {});
