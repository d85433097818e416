/**
 * The calendar feed: one secret address per account that calendar apps subscribe to (docs/time.md
 * "Calendar feed, export and import"). The address carries a 256-bit random token; the feed route
 * finds the account by the token's SHA-256. The token itself is kept too, so the dashboard can
 * show the address again (see the migration 2026-11-23-004 for why that is acceptable).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { newToken, nowIso, sha256Hex } from '../lib/ids.ts';
import {
  deleteCalendarFeed,
  findCalendarFeedByTokenHash,
  findCalendarFeedOfAccount,
  insertCalendarFeedIfAbsent,
  listFeedReminders,
  upsertCalendarFeed,
} from '../repositories/calendar-feeds.ts';
import { remindersToIcs } from '../reminders/calendar.ts';

export type FeedDeps = Pick<FastifyInstance, 'db' | 'config'>;

/** The path part of a feed address: `/feeds/<token>.ics`. */
export const FEED_PATH_PREFIX = '/feeds/';
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

const feedUrl = (deps: FeedDeps, token: string) => `${deps.config.publicUrl}${FEED_PATH_PREFIX}${token}.ics`;

const newFeedRow = (accountId: string) => {
  const token = newToken();
  return { account_id: accountId, token, token_hash: sha256Hex(token), created_at: nowIso() };
};

/** The account's feed address, created on first call (and again after it was turned off). */
export async function getOrCreateFeed(deps: FeedDeps, accountId: string): Promise<{ url: string }> {
  const existing = await findCalendarFeedOfAccount(deps.db, accountId);
  if (existing) return { url: feedUrl(deps, existing.token) };
  await insertCalendarFeedIfAbsent(deps.db, newFeedRow(accountId));
  // Two first calls at once: both answer the one that was stored.
  const stored = await findCalendarFeedOfAccount(deps.db, accountId);
  if (!stored) throw new AppError('NOT_AUTHENTICATED', 'Your account no longer exists');
  return { url: feedUrl(deps, stored.token) };
}

/** A new address; the old one answers 404 from now on. */
export async function rotateFeed(deps: FeedDeps, accountId: string): Promise<{ url: string }> {
  const row = newFeedRow(accountId);
  await upsertCalendarFeed(deps.db, row);
  return { url: feedUrl(deps, row.token) };
}

/** Turns the feed off: its address answers 404. A later GET of the address creates a new one. */
export async function disableFeed(deps: FeedDeps, accountId: string): Promise<void> {
  await deleteCalendarFeed(deps.db, accountId);
}

/** The account a feed file name (`<token>.ics`) belongs to; 404 for anything else. */
export async function feedAccount(deps: FeedDeps, file: string): Promise<string> {
  const token = file.endsWith('.ics') ? file.slice(0, -4) : file;
  const feed = TOKEN_RE.test(token) ? await findCalendarFeedByTokenHash(deps.db, sha256Hex(token)) : undefined;
  if (!feed) throw new AppError('NOT_FOUND', 'No calendar feed at this address');
  return feed.account_id;
}

/**
 * The feed's calendar: every reminder that is still to fire and not paused (a paused reminder
 * fires nothing, so a calendar should not show it), one VEVENT each.
 */
export async function feedCalendar(deps: FeedDeps, accountId: string, nowMs = Date.now()): Promise<string> {
  const active = await listFeedReminders(deps.db, accountId);
  return remindersToIcs(active, { publicUrl: deps.config.publicUrl, nowMs, name: 'Chime' });
}
