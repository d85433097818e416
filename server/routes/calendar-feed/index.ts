import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { disableFeed, feedAccount, feedCalendar, getOrCreateFeed, rotateFeed } from '../../accounts/calendar-feed.ts';
import { AppError } from '../../errors.ts';
import { RateWindow } from '../../coordination/rate-window.ts';
import { ResponseCache } from '../../lib/response-cache.ts';
import { errorResponses, Ok } from '../../schemas/common.ts';

const FeedUrl = Type.Object({ url: Type.String() });
const FeedParams = Type.Object({ file: Type.String({ maxLength: 200 }) });

/** Calendar apps poll every few minutes at most; a person retrying by hand stays far below this. */
const PER_TOKEN = { limit: 60, windowMs: 60_000 };
/** Per client address (guessing addresses, or one client polling many): generous, since many people's feeds can come through one calendar provider. */
const PER_ADDRESS = { limit: 600, windowMs: 60_000 };

/**
 * The calendar feed: its management under /api/account/calendar-feed (signed in), and the feed
 * itself at /feeds/<token>.ics (public: the token is the credential). One service call each.
 */
const calendarFeed: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(async (account) => {
    account.addHook('onRequest', app.authenticate);
    const url = { response: { 200: FeedUrl, ...errorResponses } };
    account.get('/api/account/calendar-feed', { schema: url }, async (request) => getOrCreateFeed(app, request.auth!.accountId));
    account.post('/api/account/calendar-feed/rotate', { schema: url }, async (request) => rotateFeed(app, request.auth!.accountId));
    account.delete('/api/account/calendar-feed', { schema: { response: { 200: Ok, ...errorResponses } } }, async (request) => {
      await disableFeed(app, request.auth!.accountId);
      return { ok: true };
    });
  });

  const perToken = new RateWindow(app.db, 'feed_token', PER_TOKEN.limit, PER_TOKEN.windowMs);
  const perAddress = new RateWindow(app.db, 'feed_address', PER_ADDRESS.limit, PER_ADDRESS.windowMs);
  // Rebuilt only when the database changed since (any write, by any connection).
  const cache = new ResponseCache(32 * 1024 * 1024);

  app.get('/feeds/:file', { schema: { params: FeedParams, response: { 200: Type.String(), 304: Type.Null(), ...errorResponses } } }, async (request, reply) => {
    const wait = (await perAddress.hit(request.ip)) ?? (await perToken.hit(request.params.file));
    if (wait !== null) {
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      throw new AppError('RATE_LIMITED', 'Too many requests for this calendar feed. Please wait and try again.');
    }
    const accountId = await feedAccount(app, request.params.file);
    const token = await app.dbFreshChangeToken();
    let entry = cache.get(accountId, token);
    if (entry === undefined) {
      const body = await feedCalendar(app, accountId);
      entry = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"\n${body}`;
      cache.set(accountId, token, entry);
    }
    const newline = entry.indexOf('\n');
    const etag = entry.slice(0, newline);
    reply.header('etag', etag).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) return reply.status(304).send(null);
    return reply.type('text/calendar; charset=utf-8').header('content-disposition', 'inline; filename="chime.ics"').send(entry.slice(newline + 1));
  });
};

export default calendarFeed;
