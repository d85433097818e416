import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { api } from './api-client';
import {
  AUTH_UPDATED_EVENT,
  clearSession,
  getUser,
  isAuthenticated,
  type LoginResponse,
  SESSION_KEYS,
  sessionEndDelay,
  storeSession,
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
  /** Stores the session from a login/callback/setup answer. The caller navigates (SPEC: wait 100 ms, then /welcome). */
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

function endSession() {
  clearSession();
}

export function AuthProvider({ children }: { children: ReactNode }) {
  // The session lives in localStorage, so the first check is synchronous; the effect below
  // re-checks and handles the "was signed in earlier" redirect.
  const [state, setState] = useState<{ authed: boolean; user: UserData | null; checking: boolean }>(() => {
    const authed = isAuthenticated();
    return { authed, user: authed ? getUser() : null, checking: false };
  });
  const [loggingOut, setLoggingOut] = useState(false);

  const check = useCallback(() => {
    const authed = isAuthenticated();
    if (authed) {
      setFlag(true);
    } else if (hasFlag()) {
      // Was signed in earlier in this browser session and no longer is (expiry, other tab, 401).
      setFlag(false);
      if (window.location.pathname !== '/login') navigate('/login', { replace: true });
    }
    setState({ authed, user: authed ? getUser() : null, checking: false });
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
    const timer = setTimeout(endSession, delay);
    return () => clearTimeout(timer);
  }, [state.authed, state.user?.expires_at]);

  const login = useCallback((response: LoginResponse) => {
    const user = storeSession(response);
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
    await sleep(LOGOUT_REDIRECT_DELAY_MS);
    navigate('/login', { replace: true });
    setLoggingOut(false);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({ isAuthenticated: state.authed, isChecking: state.checking, isLoggingOut: loggingOut, user: state.user, login, logout }),
    [state, loggingOut, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
