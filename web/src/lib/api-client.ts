import { navigate } from 'wouter/use-browser-location';
import i18n from './i18n';
import { clearSession, getToken } from './session';

export const REQUEST_TIMEOUT_MS = 10_000;

/** Every failed call throws this. Translate with `t('common:errors.' + code, { defaultValue: message })`. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    /** The rest of the error body: `destination` (index), `reason`, `params` of a refused destination... */
    public readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** Extra abort signal (e.g. from SWR or a component unmount). */
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * On 401 clear the session and go to /login (SPEC section 8). Defaults to true except for
   * login and register, whose 401 means "wrong credentials".
   */
  redirectOn401?: boolean;
}

const NO_REDIRECT_PATHS = ['/api/auth/login', '/api/auth/register'];

/** Bodies may be bare or wrapped as `{ data }`; unwrap only when `data` is the only key. */
export function unwrap<T>(body: unknown): T {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'data') return (body as { data: T }).data;
  }
  return body as T;
}

function pickMessage(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.error === 'string' && b.error) return b.error;
    if (typeof b.message === 'string' && b.message) return b.message;
  }
  return null;
}

function genericMessage(): string {
  return i18n.t('common:errors.UNKNOWN', { defaultValue: 'An error occurred' });
}

function handleUnauthorized(): void {
  clearSession();
  if (window.location.pathname !== '/login') navigate('/login', { replace: true });
}

export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, headers = {}, signal, timeoutMs = REQUEST_TIMEOUT_MS } = options;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort);

  const token = getToken();
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    signal: controller.signal,
    headers: {
      accept: 'application/json',
      // Text in answers (a rule in words) comes in the language the dashboard shows.
      ...(i18n.language ? { 'accept-language': i18n.language } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    const message = timedOut
      ? i18n.t('common:errors.TIMEOUT', { defaultValue: 'The server took too long to answer' })
      : err instanceof Error && err.message
        ? err.message
        : genericMessage();
    throw new ApiError(0, timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', message);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }

  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }

  if (!response.ok) {
    const redirect = options.redirectOn401 ?? !NO_REDIRECT_PATHS.some((p) => path.startsWith(p));
    if (response.status === 401 && redirect) handleUnauthorized();
    const b = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    const code = typeof b.code === 'string' ? b.code : `HTTP_${response.status}`;
    throw new ApiError(response.status, code, pickMessage(parsed) ?? (response.statusText || genericMessage()), b);
  }
  return unwrap<T>(parsed);
}

export const api = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body: unknown = {}, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body: unknown = {}, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** SWR fetcher: `useSWR('/api/reminders', fetcher)`. */
export const fetcher = <T = unknown>(path: string): Promise<T> => api.get<T>(path);

/** Translated text for any thrown value: by code, falling back to the server's message. */
export function errorMessage(error: unknown, fallback?: string): string {
  if (error instanceof ApiError) {
    return i18n.t(`common:errors.${error.code}`, { defaultValue: error.message || fallback || genericMessage() });
  }
  if (error instanceof Error && error.message) return error.message;
  return fallback ?? genericMessage();
}
