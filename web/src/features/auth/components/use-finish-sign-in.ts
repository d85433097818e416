import { navigate } from 'wouter/use-browser-location';
import { useAuth } from '@/lib/auth';
import { DEFAULT_AFTER_LOGIN, rememberReturnPath, returnPathFromSearch } from '@/lib/return-to';
import type { LoginResponse } from '@/lib/session';
import { sleep } from '@/lib/utils';

export const POST_LOGIN_DELAY_MS = 100;

/** Stores a new session and leaves the login page: back to where an expired session interrupted (/login?next=...), else the greeting. */
export function useFinishSignIn(): (response: LoginResponse) => Promise<void> {
  const { login } = useAuth();
  return async (response) => {
    login(response);
    const back = returnPathFromSearch(window.location.search);
    rememberReturnPath(null);
    await sleep(POST_LOGIN_DELAY_MS);
    if (back) navigate(back, { replace: true });
    else navigate(DEFAULT_AFTER_LOGIN);
  };
}
