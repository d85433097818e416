import { navigate } from 'wouter/use-browser-location';
import i18n from './i18n';
import { currentReturnPath, expiredLoginPath } from './return-to';
import { clearSession, expireSession, getToken } from './session';

export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Every failed call throws this. `message` is the server's own text, or '' when the answer had
 * none worth showing (an empty or HTML body, a network failure): show it with `errorMessage`.
 */
export class ApiError extends Error {
  /** The answer's Retry-After (seconds), when it had one. */
  retryAfterSeconds: number | null = null;

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
   * On 401 clear the session and go to /login (docs/dashboard.md "Session"), saying the session expired when
   * one was sent. Defaults to true except for login and register, whose 401 means "wrong
   * credentials".
   */
  redirectOn401?: boolean;
}

const NO_REDIRECT_PATHS = ['/api/auth/login', '/api/auth/register'];

/**
 * The server's text, only from Chime's own error answers (`{ error, code }`): a proxy's or a
 * framework's body ("Bad Gateway", `{ "message": "Internal Server Error" }`) is a raw status
 * text, not something to show a user.
 */
function pickMessage(body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as Record<string, unknown>).code === 'string') {
    const b = body as Record<string, unknown>;
    if (typeof b.error === 'string' && b.error.trim()) return b.error;
    if (typeof b.message === 'string' && b.message.trim()) return b.message;
  }
  return '';
}

function genericMessage(): string {
  return i18n.t('common:errors.UNKNOWN', { defaultValue: 'An error occurred' });
}

/**
 * A 401 to a request that carried `sentToken`: that session is over. The user is told on /login
 * that it expired and comes back to this page after signing in; the failed action's own error is
 * not shown there (the toaster stays off on that page).
 */
function handleUnauthorized(sentToken: string | null): void {
  const stored = getToken();
  // Signed in again (another tab) while this request was out: the new session is not the one refused.
  if (stored && stored !== sentToken) return;
  const next = currentReturnPath();
  if (sentToken) {
    // Already cleared by an earlier 401 of the same batch: that one chose where to go.
    if (stored) expireSession(next);
  } else {
    clearSession();
  }
  if (window.location.pathname !== '/login') navigate(sentToken ? expiredLoginPath(next) : '/login', { replace: true });
}

/** The longest Retry-After a busy answer is waited out for, instead of shown. */
const BUSY_RETRY_MAX_S = 5;

/**
 * A write that may be sent again without doing it twice: PUT and DELETE, and a POST with an
 * Idempotency-Key (use-idempotency-key.ts).
 */
function repeatable(options: RequestOptions): boolean {
  const method = options.method ?? 'GET';
  if (method === 'PUT' || method === 'DELETE') return true;
  return method === 'POST' && Object.keys(options.headers ?? {}).some((h) => h.toLowerCase() === 'idempotency-key');
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

/**
 * One API call. A repeatable write that finds the database busy for a moment (503 DATABASE_BUSY,
 * e.g. while a backup holds SQLite's lock) is sent once more after the server's Retry-After, so the
 * user sees it go through rather than "busy, try again"; reads have SWR's own retries.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await requestOnce<T>(path, options);
  } catch (err) {
    const retryAfter = err instanceof ApiError && err.code === 'DATABASE_BUSY' ? err.retryAfterSeconds : null;
    if (retryAfter === null || retryAfter > BUSY_RETRY_MAX_S || !repeatable(options) || options.signal?.aborted) throw err;
    await wait(retryAfter * 1000, options.signal);
    if (options.signal?.aborted) throw err;
    return requestOnce<T>(path, options);
  }
}

async function requestOnce<T>(path: string, options: RequestOptions): Promise<T> {
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
  } catch {
    // The browser's own text ("Failed to fetch", "NetworkError when...") is English and says
    // nothing to a user: no message, so the action's text is shown.
    const message = timedOut ? i18n.t('common:errors.TIMEOUT', { defaultValue: 'The server took too long to answer' }) : '';
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
    if (response.status === 401 && redirect) handleUnauthorized(token);
    const error = apiErrorFrom(response.status, parsed);
    const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
    if (Number.isFinite(retryAfter) && retryAfter >= 0) error.retryAfterSeconds = retryAfter;
    throw error;
  }
  return parsed as T;
}

/** The ApiError of a failed answer (`body` parsed as JSON when it was JSON, else its text or null). */
export function apiErrorFrom(status: number, body: unknown): ApiError {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const code = typeof b.code === 'string' && b.code ? b.code : `HTTP_${status}`;
  return new ApiError(status, code, pickMessage(body), b);
}

/** An ApiError for a non-OK `Response` read outside `apiRequest` (e.g. a file download). */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return apiErrorFrom(response.status, body);
}

/** The header of a request that creates, when it has a key (use-idempotency-key.ts). */
export const idempotencyHeaders = (key: string | undefined): Record<string, string> => (key ? { 'Idempotency-Key': key } : {});

export const api = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body: unknown = {}, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body: unknown = {}, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** No answer at all: the network (or the server) is down; what the page shows may still be right. */
export const isNetworkError = (error: unknown): boolean => error instanceof ApiError && error.code === 'NETWORK_ERROR';

/** SWR fetcher: `useSWR('/api/reminders', fetcher)`. */
export const fetcher = <T = unknown>(path: string): Promise<T> => api.get<T>(path);

/**
 * Codes that only say that something failed (a 500, an answer without a code, no answer at all):
 * the action's own text ("Failed to create reminder. Please try again.") says more.
 */
function isGenericCode(code: string): boolean {
  return code === 'INTERNAL' || code === 'UNKNOWN' || code === 'NETWORK_ERROR' || code.startsWith('HTTP_');
}

const codeKey = (code: string) => `common:errors.${code}`;

/**
 * What went wrong, in the user's language, when the error says more than "it failed": the
 * translation of its code, else the server's own text; null otherwise (an empty-body 500, an
 * HTML page from a proxy, a network failure, a bug in the page).
 */
export function errorDetail(error: unknown): string | null {
  if (!(error instanceof ApiError) || isGenericCode(error.code)) return null;
  if (i18n.exists(codeKey(error.code))) return i18n.t(codeKey(error.code));
  return error.message || null;
}

/**
 * The one text to show for a failed action: `errorDetail`, else the action's `fallback` (the texts
 * of docs/dashboard.md "Errors", translated), else the generic text of the code. Never a raw status text.
 */
export function errorMessage(error: unknown, fallback?: string): string {
  const detail = errorDetail(error);
  if (detail) return detail;
  if (fallback) return fallback;
  if (error instanceof ApiError && i18n.exists(codeKey(error.code))) return i18n.t(codeKey(error.code));
  return genericMessage();
}
