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

/**
 * Whether the server's rules refuse this account a reminder in `channelId`, whatever else is
 * chosen: the server says whether the account may create there at all (may_create), and lists the
 * channels it allows. The reminder form disables Create then, the note saying why; the save is
 * still checked by the server (server/servers/rules.ts). The cap on reminders is left to the save:
 * a reminder that already posts in the server does not count twice.
 */
export function rulesRefuseChannel(rules: ServerRules | undefined, channelId: string | null): boolean {
  if (!rules?.bound) return false;
  if (!rules.may_create) return true;
  if (rules.allowed_channels && channelId) return !rules.allowed_channels.some((c) => c.id === channelId);
  return false;
}
