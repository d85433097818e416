import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Config, hasRole } from './config.ts';
import { RequestLogController } from './logging.ts';
import { sharedSchemaCompilers } from './lib/schema-compilers.ts';
import databasePlugin from './plugins/database.ts';
import clockSkewPlugin from './plugins/clock-skew.ts';
import errorsPlugin from './plugins/errors.ts';
import noNulTextPlugin from './plugins/no-nul-text.ts';
import securityHeadersPlugin from './plugins/security-headers.ts';
import authPlugin from './plugins/auth.ts';
import openApiPlugin from './plugins/openapi.ts';
import schedulerPlugin from './scheduler/plugin.ts';
import webPlugin from './plugins/web.ts';
import discordPlugin from './discord/plugin.ts';
import mailPlugin from './mail/plugin.ts';
import emailRoutes from './routes/email/index.ts';
import healthRoutes from './routes/health/index.ts';
import configRoutes from './routes/config/index.ts';
import authRoutes from './routes/auth/index.ts';
import accountRoutes from './routes/account/index.ts';
import deliveryRoutes from './routes/deliveries/index.ts';
import reminderRoutes from './routes/reminders/index.ts';
import serverRoutes from './routes/servers/index.ts';
import webhookRoutes from './routes/webhooks/index.ts';
import metricsRoutes from './routes/metrics/index.ts';
import calendarFeedRoutes from './routes/calendar-feed/index.ts';
import transferRoutes from './routes/transfer/index.ts';
import tokenRoutes from './routes/tokens/index.ts';
import sessionRoutes from './routes/sessions/index.ts';
import twoFactorRoutes from './routes/two-factor/index.ts';
import passkeyRoutes from './routes/passkeys/index.ts';
import actionRoutes from './routes/actions/index.ts';
import telegramRoutes from './routes/telegram/index.ts';
import telegramPlugin from './plugins/telegram.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, one entry per method (the fuzz test checks it covers them all). */
    registeredRoutes(): ReadonlyArray<{ method: string; url: string }>;
  }
}

export interface BuildOptions {
  config: Config;
  /** pino options or false; tests pass false. */
  logger?: boolean | object;
  /** Where the default logger writes (main.ts: readable lines on a terminal); stdout as JSON when absent. */
  logStream?: NodeJS.WritableStream;
  /** Time allowed to receive a whole request, headers and body (default 30 s); tests shorten it. */
  requestTimeoutMs?: number;
  /** A socket on which nothing moves for this long is closed (default 120 s); tests shorten it. */
  connectionTimeoutMs?: number;
  /**
   * The Discord gateway bot (bot/plugin.ts), registered after the Discord plugin when given. The
   * server never imports bot/: the entry point (main.ts) and the test helpers pass it in.
   */
  botPlugin?: FastifyPluginAsync;
}

/**
 * A request (headers and body) must arrive within 30 s: a client announcing a large body and
 * sending a few bytes would otherwise hold its connection forever. Every body the API takes is at
 * most 64 KiB, which arrives in well under a second on any working link.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/**
 * A socket on which nothing moves (a connection that never sends a byte, or a handler that never
 * answers) is closed after 120 s: above the longest legitimate wait (a webhook test send is bounded
 * by 10 s, Discord calls by their own time-outs) and above the 72 s keep-alive of idle sockets.
 */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 120_000;

/** Paths whose values must never reach the logs. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.secret',
  '*.url',
];

export async function buildApp({
  config,
  logger,
  logStream,
  requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  connectionTimeoutMs = DEFAULT_CONNECTION_TIMEOUT_MS,
  botPlugin,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      logger === undefined
        ? {
            level: config.logLevel,
            redact: { paths: LOG_REDACT, censor: '[redacted]' },
            // Query strings can carry OAuth codes and states: log the path only.
            serializers: { req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, path: req.url.split('?')[0], ip: req.ip }) },
            ...(logStream ? { stream: logStream } : {}),
          }
        : logger,
    // Requests are logged once, by level (docs/operations.md "Logs").
    logController: new RequestLogController(),
    bodyLimit: 64 * 1024,
    // Node answers 408 (clientErrorHandler below) when a request is not complete in time; it looks
    // every connectionsCheckingInterval (30 s by default), so look often enough for the bound to hold.
    requestTimeout: requestTimeoutMs,
    connectionTimeout: connectionTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(20, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    },
    trustProxy: config.trustProxy,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: 'all', allErrors: false } },
    schemaController: { compilersFactory: sharedSchemaCompilers },
    forceCloseConnections: 'idle',
    // Errors Node's HTTP parser raises before Fastify sees a request answer in the API's shape;
    // otherwise this does what Fastify's default handler does (nothing for a reset connection,
    // write only when writable, then destroy the socket).
    clientErrorHandler: (err, socket) => {
      const code = (err as { code?: string }).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const [status, body] =
        code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['408 Request Timeout', { error: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT' }]
          : code === 'HPE_HEADER_OVERFLOW'
            ? ['431 Request Header Fields Too Large', { error: 'Request headers are too large', code: 'HEADERS_TOO_LARGE' }]
            : ['400 Bad Request', { error: 'Malformed HTTP request', code: 'BAD_REQUEST' }];
      if (socket.writable) {
        const text = JSON.stringify(body);
        socket.write(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
      }
      socket.destroy(err);
    },
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Added before any plugin so that it sees every route, including those of encapsulated plugins.
  const routes: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  app.decorate('registeredRoutes', () => [...routes]);

  // The dashboard POSTs some calls with an empty body (logout, pause, resume); an empty JSON body is no body.
  const parseJson = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });

  await app.register(databasePlugin, { config });
  await app.register(clockSkewPlugin);
  await app.register(errorsPlugin);
  await app.register(noNulTextPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(authPlugin);
  await app.register(mailPlugin);
  await app.register(schedulerPlugin);

  // Every process answers /healthz and /metrics; the API and the dashboard need the web role.
  const web = hasRole(config, 'web');
  // Before every route: the API reference is generated from the routes registered after it.
  if (web) await app.register(openApiPlugin);
  await app.register(healthRoutes);
  if (web) await app.register(configRoutes);
  if (web) await app.register(authRoutes);
  if (web) await app.register(accountRoutes);
  if (web) await app.register(reminderRoutes);
  if (web) await app.register(deliveryRoutes);
  if (web) await app.register(webhookRoutes);
  await app.register(metricsRoutes);
  if (web) await app.register(calendarFeedRoutes);
  if (web) await app.register(transferRoutes);
  if (web) await app.register(tokenRoutes);
  if (web) await app.register(sessionRoutes);
  if (web) await app.register(twoFactorRoutes);
  if (web) await app.register(passkeyRoutes);
  if (web) await app.register(emailRoutes);
  if (web) await app.register(actionRoutes);
  if (web) await app.register(telegramRoutes);
  if (web) await app.register(telegramPlugin);
  await app.register(discordPlugin);
  if (web) await app.register(serverRoutes);
  if (botPlugin) await app.register(botPlugin);
  if (web && config.serveWeb) await app.register(webPlugin);

  return app;
}
