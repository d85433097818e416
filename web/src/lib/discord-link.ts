import { api } from '@/lib/api-client';
import { rememberReturnPath } from '@/lib/return-to';

/** sessionStorage marker: this Discord round trip is a link to the signed-in account, not a sign-in. */
export const DISCORD_LINK_MARKER = 'chime_discord_link';

/** The server builds the authorize URL (mode link ties the OAuth state to this account). */
const discordLinkUrl = () => api.get<{ url: string }>('/api/auth/discord/authorize-url?mode=link');

/**
 * Readies a "connect Discord" round trip for `accountId` and answers Discord's address to leave for.
 * The callback comes back to `returnTo` (the account page without one).
 */
export async function prepareDiscordLink(accountId: string, returnTo: string | null = null): Promise<string> {
  const { url } = await discordLinkUrl();
  try {
    sessionStorage.setItem(DISCORD_LINK_MARKER, accountId);
  } catch {
    /* storage blocked: the callback still recognises the same account */
  }
  rememberReturnPath(returnTo);
  return url;
}
