/**
 * Action links (docs/notifications.md "Action links"): Snooze 10 min, Tomorrow and Done in a
 * phone or chat notification, without signing in. Each link carries a token signed with the
 * server's action-link secret (server/lib/action-token.ts) naming one delivery, its reminder, the
 * occurrence it delivered and one action, so it cannot act on another reminder nor do another
 * thing. It works once (a single-use record per delivery and action) and only until the
 * reminder's next occurrence (a one-off: a week after it fired). What an action does is the rule
 * of the Discord buttons (delivered-buttons.ts), not a copy of it.
 */
import { type ActionTokenFields, LINK_ACTIONS, type LinkAction, verifyActionToken } from '../lib/action-token.ts';
import { actionLinkSecret } from './action-link-urls.ts';
import { sha256Hex } from '../lib/ids.ts';
import { type Language, languageOfLocale } from '../lib/language.ts';
import { findAccountById } from '../repositories/accounts.ts';
import { findReminderById } from '../repositories/reminders.ts';
import { deleteShortLivedRecord, findShortLivedRecord, insertShortLivedRecordOnce } from '../repositories/short-lived-records.ts';
import { nextOccurrenceAfter } from '../time/series.ts';
import type { Reminder } from '../db/database.ts';
import { applyDeliveredAction } from './delivered-buttons.ts';
import { ruleOf } from './schedule.ts';
import type { ReminderDeps } from './service.ts';

export { LINK_ACTIONS, type LinkAction };
export { actionLinksFor } from './action-link-urls.ts';

/** How long the links of a delivery without a next occurrence (a one-off) keep working. */
export const ONE_OFF_LINK_LIFETIME_MS = 7 * 86_400_000;
const USED_KIND = 'action_link_used';

/** Until when the links of the delivery of `occurrenceMs` work: the reminder's next occurrence after it. */
export function linkExpiry(reminder: Reminder, occurrenceMs: number): number {
  let next: number | null = null;
  try {
    next = reminder.recurrence_type === 'ONCE' ? null : nextOccurrenceAfter(ruleOf(reminder), occurrenceMs);
  } catch {
    // A row the recurrence code refuses: the one-off lifetime.
  }
  return next ?? occurrenceMs + ONE_OFF_LINK_LIFETIME_MS;
}

export type ActionLinkState =
  /** Not a token this server signed (mistyped, cut, forged). */
  | { kind: 'invalid'; language?: Language }
  /** The reminder was deleted. */
  | { kind: 'gone'; language: Language }
  /** Past the next occurrence: the notification it came with is out of date. */
  | { kind: 'expired'; language: Language }
  /** This action of this delivery was already done once. */
  | { kind: 'used'; language: Language }
  | { kind: 'ready'; language: Language; action: LinkAction; message: string; reminderId: string; timezone: string };

export type ActionLinkOutcome =
  | Exclude<ActionLinkState, { kind: 'ready' }>
  | { kind: 'done'; language: Language; message: string; reminderId: string; snoozeCancelled: boolean }
  | { kind: 'snoozed'; language: Language; message: string; reminderId: string; timezone: string; nextFireUtc: string };

const usedKey = (fields: ActionTokenFields) => sha256Hex(`${fields.deliveryId}:${fields.action}`);

type TokenRead =
  | { state: Extract<ActionLinkState, { kind: 'invalid' | 'gone' | 'expired' }> }
  | { fields: ActionTokenFields; reminder: Reminder; language: Language; expiresMs: number };

async function readToken(deps: Pick<ReminderDeps, 'db'>, token: string, nowMs: number): Promise<TokenRead> {
  const fields = verifyActionToken(await actionLinkSecret(deps.db), token);
  if (!fields) return { state: { kind: 'invalid' } };
  const reminder = await findReminderById(deps.db, fields.reminderId);
  if (!reminder) return { state: { kind: 'gone', language: 'en' } };
  const account = await findAccountById(deps.db, reminder.account_id);
  const language = languageOfLocale(account?.locale);
  const expiresMs = linkExpiry(reminder, fields.occurrenceMs);
  if (nowMs >= expiresMs) return { state: { kind: 'expired', language } };
  return { fields, reminder, language, expiresMs };
}

/** What the link would do, without doing it (the page a browser shows before the tap is confirmed). */
export async function inspectActionLink(deps: Pick<ReminderDeps, 'db'>, token: string, nowMs = Date.now()): Promise<ActionLinkState> {
  const read = await readToken(deps, token, nowMs);
  if ('state' in read) return read.state;
  const { fields, reminder, language } = read;
  const used = await findShortLivedRecord(deps.db, USED_KIND, usedKey(fields), new Date(nowMs).toISOString());
  if (used !== undefined) return { kind: 'used', language };
  return { kind: 'ready', language, action: fields.action, message: reminder.message, reminderId: reminder.id, timezone: reminder.timezone };
}

/** Does what the link says, once: the single-use record is written before the action and taken back if it fails. */
export async function redeemActionLink(deps: ReminderDeps, token: string, nowMs = Date.now()): Promise<ActionLinkOutcome> {
  const read = await readToken(deps, token, nowMs);
  if ('state' in read) return read.state;
  const { fields, reminder, language, expiresMs } = read;
  const keyHash = usedKey(fields);
  const first = await insertShortLivedRecordOnce(deps.db, { kind: USED_KIND, key_hash: keyHash, value: reminder.id, expires_at: new Date(expiresMs).toISOString() });
  if (!first) return { kind: 'used', language };
  try {
    const result = await applyDeliveredAction(
      deps,
      { accountId: reminder.account_id, reminderId: reminder.id, timezone: reminder.timezone },
      { action: fields.action, occurrenceMs: fields.occurrenceMs, messageSentMs: fields.occurrenceMs },
      nowMs,
    );
    if (result.kind === 'done') return { kind: 'done', language, message: reminder.message, reminderId: reminder.id, snoozeCancelled: result.snoozeCancelled };
    return { kind: 'snoozed', language, message: reminder.message, reminderId: reminder.id, timezone: reminder.timezone, nextFireUtc: result.nextFireUtc };
  } catch (err) {
    // Not done: the tap may be tried again.
    await deleteShortLivedRecord(deps.db, USED_KIND, keyHash).catch(() => {});
    throw err;
  }
}
