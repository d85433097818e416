import type { Static } from '@sinclair/typebox';
import useSWR from 'swr';
// Type-only: erased by the compiler, so nothing of the server reaches the bundle (web/src/lib/api/types.ts).
import type { ServerRulesOut } from '../../../../server/routes/servers/schemas.ts';

/** A Discord server's rules as they hold the signed-in account (docs/servers.md "Settings and rules"). */
export type ServerRules = Static<typeof ServerRulesOut>;

export const serverRulesKey = (guildId: string) => `/api/servers/${encodeURIComponent(guildId)}/rules`;

/**
 * Shared by the reminder form's channel step and the Servers section. A server the account cannot
 * read (no Discord identity, not a member) answers an error: no rules are shown then, the save
 * still meets them.
 */
export const useServerRules = (guildId: string | null) => useSWR<ServerRules>(guildId ? serverRulesKey(guildId) : null, { shouldRetryOnError: false });
