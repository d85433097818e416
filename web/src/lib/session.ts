/**
 * The stored session (docs/dashboard.md "Session"). localStorage keys are part of the contract:
 * `auth_token`, `token_expires_at`, `user_data`.
 */
export const TOKEN_KEY = 'auth_token';
export const EXPIRES_KEY = 'token_expires_at';
export const USER_KEY = 'user_data';
export const SESSION_KEYS = [TOKEN_KEY, EXPIRES_KEY, USER_KEY] as const;
/** sessionStorage flag: "was authenticated earlier in this browser session". */
export const WAS_AUTHENTICATED_KEY = 'was_authenticated';
/** Fired on window whenever this tab changes the session. */
export const AUTH_UPDATED_EVENT = 'auth-updated';

/** Session ends 5 minutes before expiry; browsers only honour timers up to 2^31-1 ms. */
export const SESSION_END_MARGIN_MS = 5 * 60 * 1000;
export const MAX_TIMER_MS = 2147483647;

export interface UserData {
  user_id: string;
  email: string;
  username: string;
  expires_at: string;
  /** The account's language when signed in (en, fr, es), or null: see `lib/i18n.ts`. */
  language?: string | null;
}

/** Answer of POST /api/auth/login, /api/auth/discord/callback and /setup. */
export interface LoginResponse {
  token: string;
  expires_at?: string | null;
  expiresAt?: string | null;
  id: string;
  email: string;
  username: string;
  language?: string | null;
}

/** Discord callback sessions have no expiry in the answer: 30 days (docs/dashboard.md "Session"). */
const DEFAULT_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function getExpiresAt(): number | null {
  const raw = safeGet(EXPIRES_KEY);
  if (!raw) return null;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? null : ms;
}

export function getUser(): UserData | null {
  const raw = safeGet(USER_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as UserData;
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/** A token is stored but its expiry has passed (it must be removed, and the user told why). */
export function hasExpiredToken(now = Date.now()): boolean {
  if (!getToken()) return false;
  const expires = getExpiresAt();
  return expires !== null && expires <= now;
}

/** An expired or missing token is not authenticated. */
export function isAuthenticated(now = Date.now()): boolean {
  const token = getToken();
  if (!token) return false;
  const expires = getExpiresAt();
  if (expires !== null && expires <= now) return false;
  return true;
}

export function storeSession(response: LoginResponse): UserData {
  const expiresAt = response.expires_at ?? response.expiresAt ?? new Date(Date.now() + DEFAULT_SESSION_MS).toISOString();
  const user: UserData = { user_id: response.id, email: response.email, username: response.username, expires_at: expiresAt, language: response.language ?? null };
  localStorage.setItem(TOKEN_KEY, response.token);
  localStorage.setItem(EXPIRES_KEY, expiresAt);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  notifyAuthUpdated();
  return user;
}

/** Updates the cached user (e.g. after a username/email change on the account page). */
export function updateStoredUser(patch: Partial<Pick<UserData, 'email' | 'username'>>): void {
  const user = getUser();
  if (!user) return;
  localStorage.setItem(USER_KEY, JSON.stringify({ ...user, ...patch }));
  notifyAuthUpdated();
}

export function clearSession(): void {
  for (const key of SESSION_KEYS) {
    try {
      localStorage.removeItem(key);
    } catch {
      /* ignore */
    }
  }
  notifyAuthUpdated();
}

/**
 * Set by `expireSession` just before it clears the session, read once by the auth provider's
 * re-check (which the clearing triggers): a session that ended by itself, unlike a sign-out,
 * sends the user to /login with the reason and the page to come back to.
 */
let pendingExpiry: { next: string | null } | null = null;

/** Ends a session that expired or was refused (401): clears it and remembers why. */
export function expireSession(next: string | null): void {
  pendingExpiry = { next };
  clearSession();
}

/** The expiry `expireSession` recorded, once. */
export function takeExpiry(): { next: string | null } | null {
  const expiry = pendingExpiry;
  pendingExpiry = null;
  return expiry;
}

export function notifyAuthUpdated(): void {
  window.dispatchEvent(new Event(AUTH_UPDATED_EVENT));
}

/** Delay until the session must end, or null when no timer may be set. */
export function sessionEndDelay(now = Date.now()): number | null {
  const expires = getExpiresAt();
  if (expires === null) return null;
  const delay = expires - SESSION_END_MARGIN_MS - now;
  return delay > 0 && delay <= MAX_TIMER_MS ? delay : null;
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
