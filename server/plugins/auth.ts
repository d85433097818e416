import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';
import { authenticateAccessToken, checkTokenScope, isAccessToken, type TokenScope } from '../accounts/access-tokens.ts';
import { attemptRefused, networkOf } from '../accounts/login-throttle.ts';
import { KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_TTL_MS } from '../accounts/known-devices.ts';
import { RateWindow } from '../coordination/rate-window.ts';
import { nowIso } from '../lib/ids.ts';
import { createSessionLookup } from '../accounts/session-lookup.ts';
import { deleteExpiredSessions, touchSession } from '../repositories/sessions.ts';

export const SESSION_COOKIE = 'chime_session';

export interface AuthContext {
  accountId: string;
  /** Null for a personal access token (no session). */
  sessionId: string | null;
  /** bearer: a session token in Authorization; token: a personal access token (docs/api.md). */
  via: 'bearer' | 'cookie' | 'token';
  /** The account's change token as the session lookup read it (server/accounts/session-lookup.ts). */
  accountChangeToken?: string;
}

/** A route's decision about personal access tokens; without one, no token may use it. */
export interface RouteTokenAccess {
  method: string;
  url: string;
  tokenScope: TokenScope | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a live session. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** Reads the session if there is one, without requiring it. */
    readSession(request: FastifyRequest): Promise<AuthContext | null>;
    setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date): void;
    clearSessionCookie(reply: FastifyReply): void;
    /** The known-device cookie (docs/security.md): sent only to the sign-in routes, for a year. */
    setKnownDeviceCookie(reply: FastifyReply, token: string): void;
    /** Every route registered after this plugin and the token scope it asks for (null: tokens refused). */
    routeTokenAccess(): ReadonlyArray<RouteTokenAccess>;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /**
     * The scope a personal access token needs for this route. Routes without it refuse every
     * token (403 TOKEN_NOT_ALLOWED): account, password, token and Discord routes stay the
     * dashboard's.
     */
    tokenScope?: TokenScope;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Writing last_used_at on every request would turn every read into a write.
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+([A-Za-z0-9_\-.~+/=]{16,512})\s*$/i.exec(header);
  return m ? m[1]! : null;
}

export default fp(
  async (app) => {
    await app.register(cookie);
    const secure = app.config.publicUrl.startsWith('https://');
    const ownOrigins = new Set([new URL(app.config.publicUrl).origin]);

    function sameOrigin(request: FastifyRequest): boolean {
      const source = request.headers.origin ?? request.headers.referer;
      if (!source) return false;
      let origin: string;
      try {
        origin = new URL(source).origin;
      } catch {
        return false;
      }
      if (ownOrigins.has(origin)) return true;
      // The server may be reached under another name than PUBLIC_URL (127.0.0.1 vs localhost).
      const host = request.headers.host;
      return !!host && (origin === `http://${host}` || origin === `https://${host}`);
    }

    const sessions = createSessionLookup({ db: app.db, dialect: app.dbDialect, accountAndSessionTokens: app.dbAccountAndSessionTokens });
    const tokenThrottle = new RateWindow(app.db, 'access_token', app.config.tokenThrottle.limit, app.config.tokenThrottle.windowMs);

    /**
     * A personal access token: no cookie, so no CSRF check (a page on another site cannot set the
     * Authorization header). Throttled per token, then held to the route's declared scope.
     */
    async function readAccessToken(request: FastifyRequest, bearer: string): Promise<AuthContext | null> {
      const holder = await authenticateAccessToken(app.db, bearer);
      if (!holder) return null;
      const wait = await tokenThrottle.hit(holder.tokenId);
      if (wait !== null) throw attemptRefused(wait, 'Too many requests with this access token.');
      checkTokenScope(holder, request.routeOptions.config.tokenScope);
      request.auth = { accountId: holder.accountId, sessionId: null, via: 'token' };
      return request.auth;
    }

    async function readSession(request: FastifyRequest): Promise<AuthContext | null> {
      if (request.auth !== null) return request.auth;
      const bearer = bearerToken(request);
      if (bearer && isAccessToken(bearer)) return readAccessToken(request, bearer);
      const cookieToken = request.cookies?.[SESSION_COOKIE];
      const token = bearer ?? cookieToken ?? null;
      if (!token) return null;
      const found = await sessions.find(token);
      if (!found) return null;
      const { session } = found;
      const via = bearer ? 'bearer' : 'cookie';
      if (via === 'cookie' && !SAFE_METHODS.has(request.method) && !sameOrigin(request)) {
        throw new AppError('CSRF_REJECTED', 'Cross-site request refused. Reload the page and try again.');
      }
      const network = networkOf(request.ip);
      if (!session.last_used_at || Date.now() - Date.parse(session.last_used_at) > TOUCH_INTERVAL_MS || session.network !== network) {
        // Where and when it was last seen (the account page's list of sessions). Bookkeeping, not what the request asked for: a read must not wait for the write lock
        // (another process may hold it for a while) nor fail when that write cannot be made.
        const usedAt = nowIso();
        touchSession(app.db, session.id, network, usedAt).then(
          () => sessions.touched(token, usedAt, network),
          (err: unknown) => request.log.debug({ err }, 'could not record the session as used'),
        );
      }
      request.auth = { accountId: session.account_id, sessionId: session.id, via, accountChangeToken: found.accountChangeToken };
      return request.auth;
    }

    // Answers of the API are per-user: no browser or proxy may keep them.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    });

    const tokenAccess: RouteTokenAccess[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) tokenAccess.push({ method, url: route.url, tokenScope: route.config?.tokenScope ?? null });
    });
    app.decorate('routeTokenAccess', () => [...tokenAccess]);

    app.decorateRequest('auth', null);
    app.decorate('readSession', readSession);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const auth = await readSession(request);
      if (!auth) throw new AppError('NOT_AUTHENTICATED', 'You are not signed in or your session has expired');
    });
    app.decorate('setSessionCookie', (reply: FastifyReply, token: string, expiresAt: Date) => {
      reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt });
    });
    app.decorate('clearSessionCookie', (reply: FastifyReply) => {
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
    });

    app.decorate('setKnownDeviceCookie', (reply: FastifyReply, token: string) => {
      reply.setCookie(KNOWN_DEVICE_COOKIE, token, { path: '/api/auth', httpOnly: true, sameSite: 'lax', secure, expires: new Date(Date.now() + KNOWN_DEVICE_TTL_MS) });
    });

    const sweep = setInterval(() => {
      deleteExpiredSessions(app.db).catch((err) => app.log.warn({ err }, 'session sweep failed'));
    }, 60 * 60 * 1000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'auth', dependencies: ['database'] },
);
