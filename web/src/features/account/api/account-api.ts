import { api } from '@/lib/api-client';

/** sessionStorage marker: the Discord round trip started from the account page is a link, not a sign-in. */
export const DISCORD_LINK_MARKER = 'chime_discord_link';

/** The server builds the authorize URL (mode link ties the OAuth state to this account). */
export const discordLinkUrl = () => api.get<{ url: string }>('/api/auth/discord/authorize-url?mode=link');

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const DELETE_CONFIRMATION_WORD = 'DELETE';
export const PASSWORD_SUCCESS_MS = 5000;
export const ACCOUNT_DELETED_REDIRECT_MS = 1000;
