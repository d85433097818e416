import type { REST, RESTOptions } from '@discordjs/rest';
import { fetch } from 'undici';
import type { DiscordConfig } from '../config.ts';
import type { Identity } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { findIdentity, findIdentityById, updateIdentityById } from '../repositories/accounts.ts';
import type { Executor } from '../repositories/executor.ts';
import { importDiscordRest } from '../lib/load-on-use.ts';
import { RateWindow } from '../coordination/rate-window.ts';

/** Every Discord call (bot or user token) gives up after this long: the dashboard waits 10 s. */
export const DISCORD_TIMEOUT_MS = 8_000;

/**
 * Splits `https://discord.com/api/v10` into REST's `api` (without the version) and `version`:
 * @discordjs/rest always appends `/v{version}` itself.
 */
export function splitApiUrl(apiUrl: string): { api: string; version: string } {
  const trimmed = apiUrl.replace(/\/+$/, '');
  const m = /^(.*)\/v(\d+)$/.exec(trimmed);
  return m ? { api: m[1]!, version: m[2]! } : { api: trimmed, version: '10' };
}

/**
 * Requests per second this bot makes across every instance: Discord's global limit is 50 per bot
 * token, whatever the number of processes using it; the margin covers interaction replies, which
 * the discord.js client sends on its own.
 */
export const DISCORD_GLOBAL_PER_SECOND = 45;

/**
 * Waits until the bot may make one more request in this second, counted in the database so every
 * instance shares the budget. If the database cannot answer, the request goes ahead: Discord's own
 * 429 (which REST honours) is a better outcome than a reminder held back.
 */
export function sharedGlobalLimit(db: Executor, perSecond = DISCORD_GLOBAL_PER_SECOND): () => Promise<void> {
  const window = new RateWindow(db, 'discord_global', perSecond, 1000);
  return async () => {
    for (;;) {
      let wait: number | null;
      try {
        wait = await window.hit('bot');
      } catch {
        return;
      }
      if (wait === null) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
}

/**
 * Publishing (crossposting) is limited to 10 messages per hour per channel: waiting out such a
 * limit would hold a delivery for up to an hour, so REST throws a RateLimitError at once instead
 * (the channel sender records the message as delivered, not published). Other limits are waited
 * out as before.
 */
export const rejectCrosspostRateLimit = (data: { route: string; method: string }): boolean => data.method.toUpperCase() === 'POST' && data.route.endsWith('/crosspost');

/**
 * The bot's REST client (token `Bot ...`), pointed at `config.apiUrl` (a fake Discord in tests).
 * With `shared.db`, its requests count against the bot's global limit shared by every instance.
 */
export async function createBotRest(config: Pick<DiscordConfig, 'token' | 'apiUrl'>, shared?: { db: Executor; perSecond?: number }): Promise<REST> {
  const { api, version } = splitApiUrl(config.apiUrl);
  const { DefaultRestOptions, REST } = await importDiscordRest();
  const limit = shared ? sharedGlobalLimit(shared.db, shared.perSecond) : null;
  const makeRequest: RESTOptions['makeRequest'] | undefined = limit
    ? async (url, init) => {
        await limit();
        return DefaultRestOptions.makeRequest(url, init);
      }
    : undefined;
  // Two retries on 5xx/time-outs: a reminder send is retried by the outbox anyway.
  return new REST({ api, version, timeout: DISCORD_TIMEOUT_MS, retries: 2, rejectOnRateLimit: rejectCrosspostRateLimit, ...(makeRequest ? { makeRequest } : {}) }).setToken(
    config.token,
  );
}

/** Stops the sweeper timers REST starts, so a closed app leaves no handles behind. */
export function closeBotRest(rest: REST): void {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
}

// ---------------------------------------------------------------------------------------------
// User-token (OAuth2) client

export interface DiscordTokenSet {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  email?: string | null;
  verified?: boolean;
  locale?: string;
}

export interface DiscordPartialGuild {
  id: string;
  name: string;
  icon: string | null;
  owner?: boolean;
  permissions?: string;
}

export interface DiscordGuildMember {
  roles: string[];
  nick?: string | null;
  communication_disabled_until?: string | null;
  user?: DiscordUser;
}

/** A non-2xx answer (or no answer) from Discord. `message` is readable and never carries a token or code. */
export class DiscordHttpError extends Error {
  constructor(
    message: string,
    /** HTTP status, 0 when Discord could not be reached. */
    public readonly status: number,
    /** Discord's JSON error code (10004...) or the OAuth error string ("invalid_grant"). */
    public readonly code: number | string | null = null,
    public readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'DiscordHttpError';
  }
}

async function readBody(res: { text(): Promise<string> }): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
}

function describeFailure(what: string, status: number, body: unknown): DiscordHttpError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const code = (typeof b.code === 'number' ? b.code : typeof b.error === 'string' ? b.error : null) as number | string | null;
  const detail =
    typeof b.message === 'string' ? b.message : typeof b.error_description === 'string' ? b.error_description : typeof b.error === 'string' ? b.error : typeof body === 'string' ? body : '';
  const retryAfter = typeof b.retry_after === 'number' ? b.retry_after : null;
  return new DiscordHttpError(`Discord answered ${status} to ${what}${detail ? `: ${detail}` : ''}`, status, code, retryAfter);
}

export interface DiscordOAuthClient {
  exchangeCode(code: string, redirectUri: string): Promise<DiscordTokenSet>;
  refresh(refreshToken: string): Promise<DiscordTokenSet>;
  getCurrentUser(accessToken: string): Promise<DiscordUser>;
  getCurrentUserGuilds(accessToken: string): Promise<DiscordPartialGuild[]>;
  getCurrentUserGuildMember(accessToken: string, guildId: string): Promise<DiscordGuildMember>;
}

/** A small typed client for the calls Discord only accepts with the user's own OAuth token. */
export function createOAuthClient(config: Pick<DiscordConfig, 'apiUrl' | 'clientId' | 'clientSecret'>): DiscordOAuthClient {
  const base = config.apiUrl.replace(/\/+$/, '');
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64')}`;

  async function send(what: string, path: string, init: { method: string; headers: Record<string, string>; body?: string }, retried = false): Promise<unknown> {
    let res;
    try {
      res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(DISCORD_TIMEOUT_MS) });
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : 'failed';
      throw new DiscordHttpError(`The request to Discord (${what}) ${reason}`, 0);
    }
    const body = await readBody(res);
    if (res.ok) return body;
    const error = describeFailure(what, res.status, body);
    // One short wait on a rate limit; longer ones are reported to the caller.
    if (res.status === 429 && !retried) {
      const wait = error.retryAfterSeconds ?? Number(res.headers.get('retry-after') ?? 'NaN');
      if (Number.isFinite(wait) && wait <= 2) {
        await new Promise((r) => setTimeout(r, Math.max(0, wait) * 1000));
        return send(what, path, init, true);
      }
    }
    throw error;
  }

  const tokenRequest = (what: string, form: Record<string, string>) =>
    send(what, '/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic, accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    }) as Promise<DiscordTokenSet>;

  const get = <T>(what: string, path: string, accessToken: string) =>
    send(what, path, { method: 'GET', headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }) as Promise<T>;

  return {
    exchangeCode: (code, redirectUri) => tokenRequest('the code exchange', { grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
    refresh: (refreshToken) => tokenRequest('the token refresh', { grant_type: 'refresh_token', refresh_token: refreshToken }),
    getCurrentUser: (token) => get<DiscordUser>('GET /users/@me', '/users/@me', token),
    async getCurrentUserGuilds(token) {
      // Users can be in at most 200 guilds (one page), but follow `after` in case that grows.
      const all: DiscordPartialGuild[] = [];
      let after: string | null = null;
      for (let page = 0; page < 10; page++) {
        const query: string = `?limit=200${after ? `&after=${after}` : ''}`;
        const list: DiscordPartialGuild[] = await get<DiscordPartialGuild[]>('GET /users/@me/guilds', `/users/@me/guilds${query}`, token);
        all.push(...list);
        if (list.length < 200) break;
        after = list[list.length - 1]!.id;
      }
      return all;
    },
    getCurrentUserGuildMember: (token, guildId) =>
      get<DiscordGuildMember>('GET /users/@me/guilds/{guild}/member', `/users/@me/guilds/${encodeURIComponent(guildId)}/member`, token),
  };
}

// ---------------------------------------------------------------------------------------------
// Stored user tokens: refresh when expired, save the new pair

/** Refresh a little before the stored expiry so a token does not die in flight. */
const EXPIRY_MARGIN_MS = 60_000;

export const tokenExpiry = (tokens: Pick<DiscordTokenSet, 'expires_in'>, now = Date.now()) =>
  new Date(now + Math.max(0, tokens.expires_in) * 1000).toISOString();

export const reconnectDiscord = (why = 'Your Discord authorization has expired') =>
  new AppError('DISCORD_IDENTITY_REQUIRED', `${why}. Sign in with Discord again (or reconnect it on the account page).`, 403);

export const discordUnavailable = (err?: unknown) =>
  new AppError(
    'DISCORD_UNAVAILABLE',
    err instanceof DiscordHttpError && err.status === 429
      ? `Discord is rate limiting Chime. Try again in ${Math.ceil(err.retryAfterSeconds ?? 5)} seconds.`
      : 'Discord is not responding right now. Please try again in a moment.',
    502,
  );

/**
 * Runs calls with the account's Discord OAuth token: refreshes it first when the stored expiry has
 * passed, and once more when Discord answers 401 anyway (revoked or expired early). New tokens are
 * saved; concurrent refreshes of the same identity share one request, because Discord's refresh
 * tokens are single-use.
 */
export class UserTokens {
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(
    private readonly db: Executor,
    private readonly oauth: DiscordOAuthClient,
  ) {}

  async identityOf(accountId: string): Promise<Identity | undefined> {
    return findIdentity(this.db, accountId, 'discord');
  }

  /** Stores a fresh token pair on the identity. */
  async save(identityId: string, tokens: DiscordTokenSet): Promise<void> {
    await updateIdentityById(this.db, identityId, {
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token ?? null,
      token_expires_at: tokenExpiry(tokens),
      scope: tokens.scope ?? null,
    });
  }

  private refresh(identity: Identity): Promise<string> {
    const running = this.inflight.get(identity.id);
    if (running) return running;
    const job = (async () => {
      // Another request may have refreshed it already: use the stored pair if it changed.
      const current = await findIdentityById(this.db, identity.id);
      if (current?.access_token && current.access_token !== identity.access_token && !isExpired(current)) return current.access_token;
      const refreshToken = current?.refresh_token ?? identity.refresh_token;
      if (!refreshToken) throw reconnectDiscord();
      let tokens: DiscordTokenSet;
      try {
        tokens = await this.oauth.refresh(refreshToken);
      } catch (err) {
        if (err instanceof DiscordHttpError && (err.status === 400 || err.status === 401)) {
          // The grant is gone (revoked in Discord's settings): forget the dead tokens.
          await updateIdentityById(this.db, identity.id, { access_token: null, refresh_token: null, token_expires_at: null });
          throw reconnectDiscord();
        }
        throw discordUnavailable(err);
      }
      await this.save(identity.id, tokens);
      return tokens.access_token;
    })().finally(() => this.inflight.delete(identity.id));
    this.inflight.set(identity.id, job);
    return job;
  }

  /**
   * Calls `fn` with a valid access token of the account's Discord identity. Throws AppError:
   * DISCORD_IDENTITY_REQUIRED (403) without an identity or a usable grant, DISCORD_UNAVAILABLE (502)
   * when Discord fails; other DiscordHttpErrors (404...) reach the caller unchanged.
   */
  async call<T>(accountId: string, fn: (accessToken: string) => Promise<T>, requiredScope?: string): Promise<T> {
    const identity = await this.identityOf(accountId);
    if (!identity) throw new AppError('DISCORD_IDENTITY_REQUIRED', 'Connect your Discord account first', 403);
    if (!identity.access_token && !identity.refresh_token) {
      // Accounts the bot created from a slash command have no OAuth grant yet.
      throw reconnectDiscord('Chime cannot see your Discord servers yet');
    }
    if (requiredScope && identity.scope && !identity.scope.split(/\s+/).includes(requiredScope)) {
      throw reconnectDiscord(`Chime needs the "${requiredScope}" Discord permission`);
    }
    let token = identity.access_token && !isExpired(identity) ? identity.access_token : await this.refresh(identity);
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn(token);
      } catch (err) {
        if (err instanceof DiscordHttpError && err.status === 401 && attempt === 0) {
          token = await this.refresh({ ...identity, access_token: token });
          continue;
        }
        if (err instanceof DiscordHttpError && err.status === 401) throw reconnectDiscord();
        if (err instanceof DiscordHttpError && (err.status === 0 || err.status === 429 || err.status >= 500)) throw discordUnavailable(err);
        throw err;
      }
    }
  }
}

function isExpired(identity: Pick<Identity, 'token_expires_at'>, now = Date.now()): boolean {
  if (!identity.token_expires_at) return false;
  const at = Date.parse(identity.token_expires_at);
  return Number.isFinite(at) && at - EXPIRY_MARGIN_MS <= now;
}
