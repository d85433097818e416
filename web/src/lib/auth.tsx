import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { api } from './api-client';
import { adoptAccountLanguage, forgetAccountLanguage } from './i18n';
import { currentReturnPath, expiredLoginPath } from './return-to';
import {
  AUTH_UPDATED_EVENT,
  clearSession,
  expireSession,
  getUser,
  hasExpiredToken,
  isAuthenticated,
  type LoginResponse,
  SESSION_KEYS,
  sessionEndDelay,
  storeSession,
  takeExpiry,
  type UserData,
  WAS_AUTHENTICATED_KEY,
} from './session';
import { sleep } from './utils';

export interface AuthContextValue {
  isAuthenticated: boolean;
  /** True until the first check ran (the router shows a loading placeholder meanwhile). */
  isChecking: boolean;
  /** True during the 100 ms between clearing the session and going to /login. */
  isLoggingOut: boolean;
  user: UserData | null;
  /**
   * The session ended by itself (expired, or refused with a 401) rather than by a sign-out: a
   * protected page sends the user to /login with the reason and itself as the way back.
   */
  sessionExpired: boolean;
  /** Stores the session from a login/callback/setup answer. The caller navigates (docs/dashboard.md "Session": 100 ms, then /welcome). */
  login: (response: LoginResponse) => UserData;
  /** POST /api/auth/logout, clears locally even on failure, waits 100 ms, goes to /login (replace). */
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export const LOGOUT_REDIRECT_DELAY_MS = 100;

function setFlag(on: boolean) {
  try {
    if (on) sessionStorage.setItem(WAS_AUTHENTICATED_KEY, '1');
    else sessionStorage.removeItem(WAS_AUTHENTICATED_KEY);
  } catch {
    /* ignore */
  }
}

function hasFlag(): boolean {
  try {
    return sessionStorage.getItem(WAS_AUTHENTICATED_KEY) === '1';
  } catch {
    return false;
  }
}

function currentPath(): string {
  return window.location.pathname;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  // The session lives in localStorage, so the first check is synchronous; the effect below
  // re-checks and handles the "was signed in earlier" redirect.
  const [state, setState] = useState<{ authed: boolean; user: UserData | null; checking: boolean; expired: boolean }>(() => {
    const authed = isAuthenticated();
    // An expired token left in storage (the tab was closed, the computer slept) is removed by the
    // first check; a protected page already knows to say so.
    return { authed, user: authed ? getUser() : null, checking: false, expired: hasExpiredToken() };
  });
  const [loggingOut, setLoggingOut] = useState(false);

  const check = useCallback(() => {
    // Clearing fires auth-updated, which may run this check again inside: that inner run then
    // takes the expiry and navigates, and this one finds nothing left to do.
    if (hasExpiredToken()) expireSession(currentReturnPath());
    const authed = isAuthenticated();
    const expiry = authed ? null : takeExpiry();
    if (authed) {
      setFlag(true);
    } else if (hasFlag()) {
      // Was signed in earlier in this browser session and no longer is (expiry, other tab, 401).
      // Only an expiry says why: a sign-out here or in another tab is the user's own doing.
      setFlag(false);
      if (currentPath() !== '/login') navigate(expiry ? expiredLoginPath(expiry.next) : '/login', { replace: true });
    }
    setState((prev) => ({ authed, user: authed ? getUser() : null, checking: false, expired: !authed && (expiry !== null || prev.expired) }));
  }, []);

  useEffect(() => {
    check();
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || (SESSION_KEYS as readonly string[]).includes(event.key)) check();
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener(AUTH_UPDATED_EVENT, check);
    return () => {
      window.removeEventListener('storage', onStorage);
      window.removeEventListener(AUTH_UPDATED_EVENT, check);
    };
  }, [check]);

  // End the session 5 minutes before expiry (no refresh endpoint exists).
  useEffect(() => {
    if (!state.authed) return;
    const delay = sessionEndDelay();
    if (delay === null) return;
    const timer = setTimeout(() => expireSession(currentReturnPath()), delay);
    return () => clearTimeout(timer);
  }, [state.authed, state.user?.expires_at]);

  const login = useCallback((response: LoginResponse) => {
    const user = storeSession(response);
    adoptAccountLanguage(user.language);
    setFlag(true);
    return user;
  }, []);

  const logout = useCallback(async () => {
    try {
      await api.post('/api/auth/logout', {}, { redirectOn401: false });
    } catch (err) {
      console.error('Logout failed', err);
    }
    setLoggingOut(true);
    setFlag(false);
    clearSession();
    forgetAccountLanguage();
    await sleep(LOGOUT_REDIRECT_DELAY_MS);
    navigate('/login', { replace: true });
    setLoggingOut(false);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      isAuthenticated: state.authed,
      isChecking: state.checking,
      isLoggingOut: loggingOut,
      user: state.user,
      sessionExpired: state.expired,
      login,
      logout,
    }),
    [state, loggingOut, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
