export interface OAuthState {
  mode: 'login' | 'link';
  /** The signed-in account a link binds to (mode link only). */
  accountId: string | null;
}

export interface SetupTicket {
  accountId: string;
}

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
export const SETUP_TICKET_TTL_MS = 30 * 60 * 1000;
export const OAUTH_STATE_COOKIE = 'chime_oauth_state';
export const SETUP_COOKIE = 'chime_setup';
