/**
 * Where a user goes back to after signing in again when their session ended (a 401, the expiry
 * timer, an expired stored token). The page travels as `/login?reason=expired&next=<path>`; for
 * Discord, which leaves the app, it waits in sessionStorage until the callback.
 */

export const LOGIN_REASON_PARAM = 'reason';
export const LOGIN_NEXT_PARAM = 'next';
export const SESSION_EXPIRED_REASON = 'expired';
/** sessionStorage: the return path kept across the Discord authorize round trip. */
export const RETURN_TO_KEY = 'chime_return_to';
/** Where a sign-in goes when there is nowhere to return to (docs/dashboard.md "Session"). */
export const DEFAULT_AFTER_LOGIN = '/welcome';

// Pages a sign-in must not lead back to: the sign-in itself, its callback, the greeting, and the
// landing page (a signed-in user has nothing to do there).
const NOT_RETURNABLE = ['/login', '/auth', '/welcome'];
const MAX_LENGTH = 2048;

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * `raw` as path + query when it is a relative path of this origin that a sign-in may return to;
 * otherwise null. `next` comes from the address bar, so anything else (`//evil.example`,
 * `/\evil.example`, `https://...`, `javascript:`) would be an open redirect.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > MAX_LENGTH) return null;
  // Browsers read `\` as `/` and drop tabs and newlines: `/\host` and `/\t/host` are other origins.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\') || hasControlCharacter(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === '/' || NOT_RETURNABLE.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return null;
  return url.pathname + url.search;
}

/** The page shown now, as a return path (null when it is not one). */
export function currentReturnPath(): string | null {
  return safeReturnPath(window.location.pathname + window.location.search);
}

/** `/login` saying the session expired, with the page to come back to when there is one. */
export function expiredLoginPath(next: string | null): string {
  const params = new URLSearchParams({ [LOGIN_REASON_PARAM]: SESSION_EXPIRED_REASON });
  const safe = safeReturnPath(next);
  if (safe) params.set(LOGIN_NEXT_PARAM, safe);
  return `/login?${params.toString()}`;
}

/** The return path of the login page's address (`search` as from wouter's useSearch or location.search). */
export function returnPathFromSearch(search: string): string | null {
  return safeReturnPath(new URLSearchParams(search).get(LOGIN_NEXT_PARAM));
}

export function isSessionExpiredSearch(search: string): boolean {
  return new URLSearchParams(search).get(LOGIN_REASON_PARAM) === SESSION_EXPIRED_REASON;
}

/** Keeps the return path for the Discord round trip (cleared when there is none). */
export function rememberReturnPath(path: string | null): void {
  try {
    const safe = safeReturnPath(path);
    if (safe) sessionStorage.setItem(RETURN_TO_KEY, safe);
    else sessionStorage.removeItem(RETURN_TO_KEY);
  } catch {
    /* storage unavailable: the sign-in goes to the default page */
  }
}

/** The kept return path, once (checked again: sessionStorage is writable by any script of the origin). */
export function takeReturnPath(): string | null {
  try {
    const value = sessionStorage.getItem(RETURN_TO_KEY);
    sessionStorage.removeItem(RETURN_TO_KEY);
    return safeReturnPath(value);
  } catch {
    return null;
  }
}
