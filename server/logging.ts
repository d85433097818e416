import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { type Config, hasRole } from './config.ts';
import { isPostgresUrl } from './db/connection.ts';

/*
 * How the server's log reads (docs/operations.md "Logs"): readable lines on a terminal, one JSON object a line
 * where a log collector reads it (journald, docker, a file), and requests only at debug.
 */

/** What LOG_FORMAT=auto means: readable when a person watches stdout. */
export function resolveLogFormat(setting: Config['logFormat'], stdoutIsTerminal: boolean): 'pretty' | 'json' {
  if (setting === 'auto') return stdoutIsTerminal ? 'pretty' : 'json';
  return setting;
}

/** Fields shown in a readable line's message rather than after it. */
const SHOWN_IN_MESSAGE = ['req', 'res', 'responseTime'];

interface RequestLogFields {
  msg?: string;
  req?: { method?: string; path?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** `request completed GET /api/reminders 200 12 ms`: a request line reads as one sentence. */
export function readableMessage(log: RequestLogFields): string {
  const parts = [log.msg ?? ''];
  if (log.req?.method) parts.push(`${log.req.method} ${log.req.path ?? ''}`);
  if (log.res?.statusCode) parts.push(String(log.res.statusCode));
  if (typeof log.responseTime === 'number') parts.push(`${Math.round(log.responseTime)} ms`);
  return parts.filter(Boolean).join(' ');
}

/**
 * The stream of readable lines (pino-pretty): time, level, message, then the remaining fields on
 * the same line. Written synchronously: a terminal's volume is small, and the last lines before
 * an exit must not be lost. Loaded only when used, so JSON logging costs nothing more.
 */
export async function readableLogStream(destination: NodeJS.WritableStream | number = 1) {
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    destination: destination as never,
    sync: true,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss',
    ignore: ['pid', 'hostname', 'reqId', ...SHOWN_IN_MESSAGE].join(','),
    singleLine: true,
    messageFormat: (log) => readableMessage(log as RequestLogFields),
  });
}

// pino's numbers; a logger switched off (tests) has level 'silent'.
const LEVEL_RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

/** A request slower than this is logged at warn whatever LOG_LEVEL says. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Fastify's request lines, by level: none when a request arrives, one when it is answered, at
 * debug normally (a busy instance would otherwise log mostly requests), at info for server errors
 * (their cause is logged at error as before), at warn when slow. Errors Fastify logs itself keep
 * their levels.
 */
export class RequestLogController extends LogController {
  constructor(private readonly slowMs = SLOW_REQUEST_MS) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
      return;
    }
    const level = responseTime >= this.slowMs ? 'warn' : reply.statusCode >= 500 ? 'info' : 'debug';
    if (LEVEL_RANK[level]! < (LEVEL_RANK[reply.log.level] ?? Infinity)) return;
    reply.log[level]({ req: request, res: reply, responseTime }, level === 'warn' ? 'slow request' : 'request completed');
  }
}

/**
 * DATABASE_URL for a log line or a terminal: a PostgreSQL URL without its password (and user),
 * a SQLite file as an absolute path.
 */
export function describeDatabase(databaseUrl: string): string {
  if (!isPostgresUrl(databaseUrl)) return `SQLite ${databaseUrl.replace(/^sqlite:(\/\/)?/, '')}`;
  try {
    const url = new URL(databaseUrl.trim());
    url.username = '';
    url.password = '';
    for (const key of [...url.searchParams.keys()]) if (/pass|key|secret/i.test(key)) url.searchParams.set(key, 'redacted');
    return `PostgreSQL ${url.toString()}`;
  } catch {
    return 'PostgreSQL (URL not shown)';
  }
}

/** What the start line says: where, which database, which roles, and what is configured or not. */
export function startSummary(config: Config) {
  const missing = (names: string[]) => `not configured (missing ${names.join(', ')})`;
  return {
    public_url: config.publicUrl,
    listen: `${config.host}:${config.port}`,
    database: describeDatabase(config.databaseUrl),
    roles: config.roles.join(','),
    discord: config.discord ? 'configured' : missing(config.discordMissing),
    email: config.mail ? 'configured' : config.mailMissing.length ? missing(config.mailMissing) : 'not configured',
    matrix: config.matrix ? 'configured' : missing(config.matrixMissing),
    telegram: config.telegram ? 'configured' : missing(config.telegramMissing),
    dashboard: hasRole(config, 'web') && config.serveWeb ? 'served' : 'not served',
  };
}
