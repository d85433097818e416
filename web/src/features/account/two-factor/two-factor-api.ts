import type { Static } from '@sinclair/typebox';
import useSWR from 'swr';
import { api } from '@/lib/api-client';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { RecoveryCodesOut, TwoFactorSetupOut, TwoFactorStatusOut } from '../../../../../server/routes/two-factor/index.ts';

export type TwoFactorStatus = Static<typeof TwoFactorStatusOut>;
export type TwoFactorSetup = Static<typeof TwoFactorSetupOut>;

export const TWO_FACTOR_KEY = '/api/account/two-factor';

export const useTwoFactor = () => useSWR<TwoFactorStatus>(TWO_FACTOR_KEY);
export const startTwoFactorSetup = () => api.post<TwoFactorSetup>(`${TWO_FACTOR_KEY}/setup`, {});
export const enableTwoFactor = (code: string) => api.post<Static<typeof RecoveryCodesOut>>(`${TWO_FACTOR_KEY}/enable`, { code });
export const disableTwoFactor = (code: string) => api.post<{ ok: boolean }>(`${TWO_FACTOR_KEY}/disable`, { code });
