import { DEFAULT_LEASE_TIMING, defaultInstanceId, type LeaseTiming } from './lib/leadership.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { DEFAULT_LOGIN_THROTTLE, type ThrottlePolicy } from './accounts/login-throttle.ts';
import { checkWebhookUrl } from './net/address-policy.ts';
import { ROOT } from './lib/paths.ts';

export interface DiscordConfig {
  token: string;
  clientId: string;
  clientSecret: string;
  /** REST base including the version, e.g. https://discord.com/api/v10 */
  apiUrl: string;
  /** Where browsers are sent to authorize; derived from apiUrl's origin. */
  authorizeUrl: string;
  devGuildId: string | null;
  /**
   * DISCORD_SHARD_COUNT: the gateway's shards spread over the instances, one lease per shard
   * (docs/operations.md "Spreading the gateway's shards"); 'auto' asks GET /gateway/bot. Unset
   * (null): one instance holds the whole gateway, with as many shards as Discord recommends.
   */
  shardCount?: number | 'auto' | null;
}

/** SMTP settings (SMTP_URL, MAIL_FROM); null when email is off. The URL carries credentials: never log it. */
export interface MailConfig {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465 (TLS). */
  smtpUrl: string;
  /** The From header: `chime@example.com` or `Chime <chime@example.com>`. */
  from: string;
  /** Reminder and confirmation mails one account may send per hour (MAIL_HOURLY_LIMIT). */
  hourlyLimit: number;
}

/**
 * The Matrix bot account (MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN); null when Matrix
 * destinations are off. The token is the bot's credential: never logged, never answered.
 */
export interface MatrixConfig {
  /** https://matrix.example.org, without a trailing slash: the client-server API's base. */
  homeserverUrl: string;
  accessToken: string;
}

/**
 * The Telegram bot (TELEGRAM_BOT_TOKEN); null when Telegram destinations are off. The token is the
 * bot's credential and part of every Bot API address: never logged, never answered.
 */
export interface TelegramConfig {
  botToken: string;
  /** The Bot API's base (https://api.telegram.org, or TELEGRAM_API_URL), without a trailing slash. */
  apiUrl: string;
}

/** Telegram's Bot API (core.telegram.org/bots/api). */
export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** Password-reset requests allowed per email and per network within `windowMs`. */
export interface ResetThrottlePolicy {
  windowMs: number;
  perEmail: number;
  perNetwork: number;
}

/** A script polling every second stays below this; a runaway loop is stopped within a minute. */
/** Pushover's message API (pushover.net/api). */
export const PUSHOVER_API_URL = 'https://api.pushover.net';

export const DEFAULT_TOKEN_THROTTLE = { limit: 300, windowMs: 60_000 };
export const DEFAULT_RESET_THROTTLE: ResetThrottlePolicy = { windowMs: 60 * 60 * 1000, perEmail: 3, perNetwork: 10 };
/**
 * Passkey sign-ins started per network, and registrations per account (docs/security.md "Passkeys"):
 * each stores a challenge for 5 minutes, so one network or account keeps at most 150 at a time. A sign-in page asks once per visit and
 * every 4 minutes while open, and again after a cancelled dialog: a crowd behind one address stays
 * well below it.
 */
export const DEFAULT_PASSKEY_OPTIONS_THROTTLE = { limit: 30, windowMs: 60_000 };

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  /**
   * DATABASE_POOL_SIZE: PostgreSQL connections of this process's main thread (the API, the bot).
   * Default 10 with the web role, else 3. Each delivery thread has its own 3 (docs/operations.md "Running on PostgreSQL"). Ignored on SQLite.
   */
  databasePoolSize: number;
  /**
   * DATABASE_PREPARED_STATEMENTS: prepare the statements sent often under a name (default true).
   * false for a pooler in transaction mode that cannot keep them (PgBouncer before 1.21, or
   * max_prepared_statements = 0). Ignored on SQLite.
   */
  databasePreparedStatements: boolean;
  logLevel: string;
  /** LOG_FORMAT: readable lines (`pretty`), one JSON object a line (`json`), or `auto`: pretty on a terminal, JSON otherwise. */
  logFormat: LogFormatSetting;
  discord: DiscordConfig | null;
  /** Which Discord settings are missing, for the "not configured" explanation. */
  discordMissing: string[];
  webhookAllowPrivateTargets: boolean;
  deliveryLogRetentionDays: number;
  /** DELIVERY_LEASE_SECONDS: how long another instance waits before sending what a dead one had claimed. */
  deliveryLeaseMs: number;
  /** CHIME_INSTANCE_ID: this instance's stable name in delivery leases; by default its host, database and port. */
  instanceId: string;
  /** Serve the built dashboard; tests of the API alone switch it off. */
  serveWeb: boolean;
  /** Start the scheduler loop; some API tests drive it by hand. */
  schedulerEnabled: boolean;
  /** Failed-password throttle of sign-in and change-password (server/accounts/login-throttle.ts); tests shorten it. */
  loginThrottle: ThrottlePolicy;
  /**
   * Where Pushover deliveries go: https://api.pushover.net. Not a setting (no variable reads it):
   * only a test points it at its fake, through loadConfig's overrides.
   */
  pushoverApiUrl: string;
  /** Behind a reverse proxy: take the client IP from X-Forwarded-For (login throttling per IP). */
  trustProxy: boolean;
  /** Bearer token for GET /metrics; without it /metrics answers on loopback only. */
  metricsToken: string | null;
  /** Where users report a problem (the dashboard's "Report an issue"); null hides the link. */
  supportUrl: string | null;
  /** Where users ask questions and talk about contributing (the dashboard's "Discussions"); null hides the link. */
  communityUrl: string | null;
  /** Email (password reset, email destinations); null without SMTP_URL. */
  mail: MailConfig | null;
  /** Which mail settings are missing, for the "not configured" explanation. */
  mailMissing: string[];
  /** Matrix destinations' bot account (docs/notifications.md "Matrix"); null without both settings. */
  matrix: MatrixConfig | null;
  /** Which Matrix settings are missing, for the "not configured" explanation. */
  matrixMissing: string[];
  /** Telegram destinations' bot (docs/notifications.md "Telegram"); null without TELEGRAM_BOT_TOKEN. */
  telegram: TelegramConfig | null;
  /** Which Telegram settings are missing, for the "not configured" explanation. */
  telegramMissing: string[];
  /**
   * The VAPID `sub` claim of Web Push requests (docs/notifications.md "Browser push"): VAPID_SUBJECT,
   * else PUBLIC_URL when it is https, else a mailto: address that reaches nobody. Push services
   * use it to contact the sender about a problem.
   */
  vapidSubject: string;
  /** Throttle of POST /api/auth/password-reset; tests shorten it. */
  resetThrottle: ResetThrottlePolicy;
  /** Requests per personal access token and window (docs/api.md); tests shorten it. */
  tokenThrottle: { limit: number; windowMs: number };
  /** Passkey sign-ins started (POST /api/auth/passkey/options) per network and window, and registrations started per account. */
  passkeyOptionsThrottle: { limit: number; windowMs: number };
  /** Lease of the Discord gateway among instances sharing the database; tests shorten it. */
  gatewayLease: LeaseTiming;
  /** CHIME_ROLES: what this process does (all three by default). */
  roles: Role[];
  /** CHIME_SCHEDULER_MODE: the delivery loop in a worker thread (default) or on the main thread. */
  schedulerMode: SchedulerMode;
  /**
   * DELIVERY_THREADS: at most this many delivery threads in worker mode, each a whole scheduler
   * with its own leases, so a burst is split over cores the way several instances split it. The
   * first always runs; the others start when it has a backlog. Default: 2 on a machine with 2 or
   * more cores, else 1.
   */
  deliveryThreads: number;
  /** How long an extra delivery thread stays without work before it stops; tests shorten it. */
  deliveryHelperIdleMs: number;
}

/**
 * What one process does (CHIME_ROLES): `web` serves the API and the dashboard, `scheduler` runs
 * the delivery loop, `bot` holds the Discord gateway and registers its commands. Every process
 * answers /healthz and /metrics whatever its roles.
 */
export const ROLES = ['web', 'scheduler', 'bot'] as const;
export type Role = (typeof ROLES)[number];

export const hasRole = (config: Pick<Config, 'roles'>, role: Role): boolean => config.roles.includes(role);

/** Whether this process runs the delivery loop: the scheduler role, unless a test turned it off. */
export const runsSchedulerLoop = (config: Pick<Config, 'roles' | 'schedulerEnabled'>): boolean => config.schedulerEnabled && hasRole(config, 'scheduler');

/** Whether that loop runs in delivery threads (the default) rather than on the main thread. */
export const runsDeliveryThreads = (config: Pick<Config, 'roles' | 'schedulerEnabled' | 'schedulerMode'>): boolean => runsSchedulerLoop(config) && config.schedulerMode === 'worker';

/**
 * Where the delivery loop runs: `worker` (production) is a worker thread with its own database
 * connection and senders, so API load cannot delay deliveries; `inline` runs it on the API's
 * event loop, which tests use to swap senders and step the loop by hand.
 */
export type SchedulerMode = 'worker' | 'inline';

export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormatSetting = (typeof LOG_FORMATS)[number];

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const DEFAULT_DISCORD_API = 'https://discord.com/api/v10';

type Env = Record<string, string | undefined>;

/** Loads `.env` from the working directory if present, without overriding real environment variables. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (value === undefined || value === '') return fallback;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  problems.push(`${name} must be true or false (got "${value}")`);
  return fallback;
}

function parseInteger(name: string, value: string | undefined, fallback: number, min: number, max: number, problems: string[]): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
    return fallback;
  }
  return n;
}

function parseShardCount(value: string | undefined, problems: string[]): number | 'auto' | null {
  const v = value?.trim().toLowerCase();
  if (!v) return null;
  if (v === 'auto') return 'auto';
  return parseInteger('DISCORD_SHARD_COUNT', v, 1, 1, 10_000, problems);
}

function parseUrl(name: string, value: string, problems: string[]): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    return value.replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an http(s) URL (got "${value}")`);
    return value;
  }
}

/** Web Push's contact: a mailto: address or an https: URL (RFC 8292 section 2.1). */
function parseVapidSubject(raw: string | undefined, publicUrl: string, problems: string[]): string {
  const value = raw?.trim();
  if (value) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      /* reported below */
    }
    const ok = url !== null && ((url.protocol === 'mailto:' && /^[^@\s]+@[^@\s]+$/.test(url.pathname)) || (url.protocol === 'https:' && url.hostname !== 'localhost'));
    if (!ok) problems.push(`VAPID_SUBJECT must be a mailto: address or an https: URL, like mailto:admin@example.org (got "${value}")`);
    return value;
  }
  try {
    const url = new URL(publicUrl);
    if (url.protocol === 'https:' && url.hostname !== 'localhost') return url.origin;
  } catch {
    /* PUBLIC_URL's own problem is reported */
  }
  return VAPID_FALLBACK_SUBJECT;
}

/** The VAPID contact without VAPID_SUBJECT or an https PUBLIC_URL: valid, but it reaches nobody. */
export const VAPID_FALLBACK_SUBJECT = 'mailto:webpush@chime.invalid';

/**
 * CHIME_ROLES=web,scheduler,bot (any subset, comma-separated, in any order); unset means all
 * three. Unknown names are refused by name rather than ignored: a typo would otherwise start a
 * process that silently delivers nothing.
 */
export function parseRoles(value: string | undefined, problems: string[]): Role[] {
  if (value === undefined || value.trim() === '') return [...ROLES];
  const names = value
    .split(',')
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ROLES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    problems.push(`CHIME_ROLES: unknown role${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; use web, scheduler and/or bot (for example CHIME_ROLES=web,scheduler)`);
    return [...ROLES];
  }
  if (names.length === 0) {
    problems.push('CHIME_ROLES names no role; use web, scheduler and/or bot, or leave it unset for all three');
    return [...ROLES];
  }
  return ROLES.filter((r) => names.includes(r));
}

function parseSchedulerMode(value: string | undefined, problems: string[]): SchedulerMode {
  const v = value?.trim().toLowerCase();
  if (!v) return 'worker';
  if (v === 'worker' || v === 'inline') return v;
  problems.push(`CHIME_SCHEDULER_MODE must be worker or inline (got "${value}")`);
  return 'worker';
}

/**
 * The project's repository on GitHub, from package.json's `repository` field, for the default
 * support and community links; null when package.json names none (then the links are hidden).
 */
export function repositoryUrl(packageJson = path.join(ROOT, 'package.json')): string | null {
  try {
    const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { repository?: string | { url?: string } };
    const raw = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    if (!raw) return null;
    const short = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
    if (short) return `https://github.com/${short[1]}`;
    const match = /github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(raw);
    return match ? `https://github.com/${match[1]}` : null;
  } catch {
    return null;
  }
}

/** An optional link setting: unset means the default, empty means none (hidden). */
function parseOptionalUrl(name: string, value: string | undefined, fallback: string | null, problems: string[]): string | null {
  if (value === undefined) return fallback;
  if (value.trim() === '') return null;
  return parseUrl(name, value.trim(), problems);
}

/**
 * DATABASE_URL=postgres://user:password@host:5432/database. Checked here so a typo stops the start
 * with a readable problem; the message never repeats the URL, which holds the password.
 */
function checkPostgresUrl(value: string, problems: string[]): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push('DATABASE_URL is not a valid PostgreSQL URL (expected postgres://user:password@host:5432/database)');
    return;
  }
  if (!url.hostname && !url.searchParams.get('host')) problems.push('DATABASE_URL names no PostgreSQL host (expected postgres://user:password@host:5432/database)');
  if (url.pathname.replace(/^\//, '') === '') problems.push('DATABASE_URL names no PostgreSQL database (expected postgres://user:password@host:5432/database)');
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const port = parseInteger('PORT', env.PORT, 3000, 0, 65535, problems);
  const host = env.HOST?.trim() || '127.0.0.1';
  const publicUrl = parseUrl('PUBLIC_URL', env.PUBLIC_URL?.trim() || `http://localhost:${port}`, problems);
  const databaseUrl = env.DATABASE_URL?.trim() || './data/chime.db';
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) checkPostgresUrl(databaseUrl, problems);
  const logLevel = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  const logFormat = (env.LOG_FORMAT?.trim() || 'auto').toLowerCase() as LogFormatSetting;
  if (!LOG_FORMATS.includes(logFormat)) problems.push(`LOG_FORMAT must be auto, pretty or json (got "${env.LOG_FORMAT}")`);

  const discordApi = parseUrl('DISCORD_API_URL', env.DISCORD_API_URL?.trim() || DEFAULT_DISCORD_API, problems);
  const discordSettings = {
    DISCORD_TOKEN: env.DISCORD_TOKEN?.trim() ?? '',
    DISCORD_CLIENT_ID: env.DISCORD_CLIENT_ID?.trim() ?? '',
    DISCORD_CLIENT_SECRET: env.DISCORD_CLIENT_SECRET?.trim() ?? '',
  };
  const discordMissing = Object.entries(discordSettings).filter(([, v]) => !v).map(([k]) => k);
  if (discordSettings.DISCORD_CLIENT_ID && !/^\d{5,25}$/.test(discordSettings.DISCORD_CLIENT_ID)) {
    problems.push(`DISCORD_CLIENT_ID must be the numeric application id (got "${discordSettings.DISCORD_CLIENT_ID}")`);
  }
  const discord: DiscordConfig | null = discordMissing.length === 0
    ? {
        token: discordSettings.DISCORD_TOKEN,
        clientId: discordSettings.DISCORD_CLIENT_ID,
        clientSecret: discordSettings.DISCORD_CLIENT_SECRET,
        apiUrl: discordApi,
        authorizeUrl: discordAuthorizeUrl(discordApi),
        devGuildId: env.DISCORD_DEV_GUILD_ID?.trim() || null,
        shardCount: parseShardCount(env.DISCORD_SHARD_COUNT, problems),
      }
    : null;

  const mail = parseMail(env, problems);
  const webhookAllowPrivateTargets = parseBoolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', env.WEBHOOK_ALLOW_PRIVATE_TARGETS, false, problems);
  const matrix = parseMatrix(env, webhookAllowPrivateTargets, problems);
  const telegram = parseTelegram(env, webhookAllowPrivateTargets, problems);

  const roles = parseRoles(env.CHIME_ROLES, problems);
  const repo = repositoryUrl();
  const config: Config = {
    port,
    host,
    publicUrl,
    databaseUrl,
    databasePoolSize: parseInteger('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, roles.includes('web') ? 10 : 3, 1, 1000, problems),
    databasePreparedStatements: parseBoolean('DATABASE_PREPARED_STATEMENTS', env.DATABASE_PREPARED_STATEMENTS, true, problems),
    logLevel,
    logFormat,
    discord,
    discordMissing,
    webhookAllowPrivateTargets,
    deliveryLogRetentionDays: parseInteger('DELIVERY_LOG_RETENTION_DAYS', env.DELIVERY_LOG_RETENTION_DAYS, 30, 1, 3650, problems),
    deliveryLeaseMs: parseInteger('DELIVERY_LEASE_SECONDS', env.DELIVERY_LEASE_SECONDS, 30, 2, 3600, problems) * 1000,
    instanceId: env.CHIME_INSTANCE_ID?.trim() || defaultInstanceId(databaseUrl, port),
    serveWeb: parseBoolean('SERVE_WEB', env.SERVE_WEB, true, problems),
    schedulerEnabled: true,
    loginThrottle: DEFAULT_LOGIN_THROTTLE,
    pushoverApiUrl: PUSHOVER_API_URL,
    trustProxy: parseBoolean('TRUST_PROXY', env.TRUST_PROXY, false, problems),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    supportUrl: parseOptionalUrl('SUPPORT_URL', env.SUPPORT_URL, repo ? `${repo}/issues` : null, problems),
    communityUrl: parseOptionalUrl('COMMUNITY_URL', env.COMMUNITY_URL, repo ? `${repo}/discussions` : null, problems),
    mail: mail.config,
    mailMissing: mail.missing,
    matrix: matrix.config,
    matrixMissing: matrix.missing,
    telegram: telegram.config,
    telegramMissing: telegram.missing,
    vapidSubject: parseVapidSubject(env.VAPID_SUBJECT, publicUrl, problems),
    resetThrottle: DEFAULT_RESET_THROTTLE,
    tokenThrottle: DEFAULT_TOKEN_THROTTLE,
    passkeyOptionsThrottle: DEFAULT_PASSKEY_OPTIONS_THROTTLE,
    gatewayLease: DEFAULT_LEASE_TIMING,
    roles,
    schedulerMode: parseSchedulerMode(env.CHIME_SCHEDULER_MODE, problems),
    deliveryThreads: parseInteger('DELIVERY_THREADS', env.DELIVERY_THREADS, Math.min(2, availableParallelism()), 1, 8, problems),
    deliveryHelperIdleMs: 30_000,
    ...overrides,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

// `addr@host` or `Name <addr@host>`: what nodemailer and SMTP servers accept as a From header.
const MAIL_FROM_PATTERN = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

/**
 * SMTP_URL and MAIL_FROM. Problems name the setting, never its value: the URL carries the SMTP
 * password.
 */
function parseMail(env: Env, problems: string[]): { config: MailConfig | null; missing: string[] } {
  const smtpUrl = env.SMTP_URL?.trim() ?? '';
  const from = env.MAIL_FROM?.trim() ?? '';
  const hourlyLimit = parseInteger('MAIL_HOURLY_LIMIT', env.MAIL_HOURLY_LIMIT, 30, 1, 100_000, problems);
  const missing = [...(smtpUrl ? [] : ['SMTP_URL']), ...(from ? [] : ['MAIL_FROM'])];
  if (!smtpUrl) return { config: null, missing };
  let urlOk = false;
  try {
    const url = new URL(smtpUrl);
    urlOk = (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    urlOk = false;
  }
  if (!urlOk) problems.push('SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465 (value not shown: it may hold a password)');
  if (!from) problems.push('MAIL_FROM is required when SMTP_URL is set (for example "Chime <chime@example.com>")');
  else if (!MAIL_FROM_PATTERN.test(from)) problems.push(`MAIL_FROM must be an address or "Name <address>" (got "${from}")`);
  return { config: urlOk && from ? { smtpUrl, from, hourlyLimit } : null, missing };
}

/**
 * MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN: both or neither. The homeserver is checked like a
 * self-hosted push server (the SSRF guard's address policy): a loopback or private address needs
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true, and every request is checked again after DNS. Problems never
 * quote the token.
 */
function parseMatrix(env: Env, allowPrivateTargets: boolean, problems: string[]): { config: MatrixConfig | null; missing: string[] } {
  const rawUrl = env.MATRIX_HOMESERVER_URL?.trim() ?? '';
  const accessToken = env.MATRIX_ACCESS_TOKEN?.trim() ?? '';
  const missing = [...(rawUrl ? [] : ['MATRIX_HOMESERVER_URL']), ...(accessToken ? [] : ['MATRIX_ACCESS_TOKEN'])];
  if (missing.length === 2) return { config: null, missing };
  if (missing.length === 1) {
    problems.push(`${missing[0]} is required when ${missing[0] === 'MATRIX_ACCESS_TOKEN' ? 'MATRIX_HOMESERVER_URL' : 'MATRIX_ACCESS_TOKEN'} is set (Matrix destinations need both)`);
    return { config: null, missing };
  }
  const before = problems.length;
  if (!/^[\x21-\x7e]+$/.test(accessToken)) problems.push('MATRIX_ACCESS_TOKEN must be one word of visible characters (value not shown)');
  const problem = checkWebhookUrl(rawUrl, allowPrivateTargets);
  let homeserverUrl = rawUrl;
  if (problem) {
    const why = problem.message.replace(/^Webhook (URL|target)/, 'the address');
    problems.push(
      problem.code === 'WEBHOOK_TARGET_FORBIDDEN'
        ? `MATRIX_HOMESERVER_URL is refused by the SSRF guard (${why}); for a homeserver on your own network set WEBHOOK_ALLOW_PRIVATE_TARGETS=true`
        : `MATRIX_HOMESERVER_URL must be the homeserver's http(s) address, like https://matrix.example.org (${why})`,
    );
  } else {
    const url = new URL(rawUrl);
    if (url.search || url.hash) problems.push('MATRIX_HOMESERVER_URL must be a plain address, without a query or a fragment');
    homeserverUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  return { config: problems.length > before ? null : { homeserverUrl, accessToken }, missing: [] };
}

/**
 * TELEGRAM_BOT_TOKEN (from @BotFather: `<bot id>:<secret>`) and TELEGRAM_API_URL (Telegram's Bot
 * API by default; another address only for tests or a self-hosted Bot API server, checked by the
 * SSRF guard's address policy like a homeserver). Problems never quote the token.
 */
function parseTelegram(env: Env, allowPrivateTargets: boolean, problems: string[]): { config: TelegramConfig | null; missing: string[] } {
  const botToken = env.TELEGRAM_BOT_TOKEN?.trim() ?? '';
  const rawUrl = env.TELEGRAM_API_URL?.trim() || TELEGRAM_API_URL;
  if (!botToken) return { config: null, missing: ['TELEGRAM_BOT_TOKEN'] };
  const before = problems.length;
  if (!/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/.test(botToken)) problems.push("TELEGRAM_BOT_TOKEN must be the token @BotFather gave, like 123456789:AA... (value not shown)");
  let apiUrl = rawUrl;
  const problem = checkWebhookUrl(rawUrl, allowPrivateTargets);
  if (problem) {
    const why = problem.message.replace(/^Webhook (URL|target)/, 'the address');
    problems.push(
      problem.code === 'WEBHOOK_TARGET_FORBIDDEN'
        ? `TELEGRAM_API_URL is refused by the SSRF guard (${why}); for a Bot API server on your own network set WEBHOOK_ALLOW_PRIVATE_TARGETS=true`
        : `TELEGRAM_API_URL must be an http(s) address, like https://api.telegram.org (${why})`,
    );
  } else {
    const url = new URL(rawUrl);
    if (url.search || url.hash) problems.push('TELEGRAM_API_URL must be a plain address, without a query or a fragment');
    apiUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  return { config: problems.length > before ? null : { botToken, apiUrl }, missing: [] };
}

/**
 * Discord serves the browser-facing authorize page at https://discord.com/oauth2/authorize,
 * outside the versioned API path; a fake Discord serves it beside its API the same way.
 */
function discordAuthorizeUrl(apiUrl: string): string {
  const url = new URL(apiUrl);
  return `${url.origin}/oauth2/authorize`;
}
