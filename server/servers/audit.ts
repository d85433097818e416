/**
 * The audit log of a Discord server (docs/servers.md "Audit log"): every change to one of its
 * reminders (a reminder with a channel destination in it) or to its settings, by its creator, its
 * managers or Chime itself, kept 90 days. Written by the reminders service, the servers service and
 * the channel sender; read by the server's managers.
 */
import type { Destination, ServerAuditAction, ServerAuditEntry } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import { findIdentity } from '../repositories/accounts.ts';
import type { Executor } from '../repositories/executor.ts';
import { deleteServerAuditBefore, insertServerAudit, listServerAudit } from '../repositories/servers.ts';
import { manageServer, type ServerDeps } from './membership.ts';

export const AUDIT_RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What an entry says, as data: the dashboard words it in the reader's language
 * (locales/<lng>/servers.json `audit.detail`), the API's `summary` in English (AUDIT_ENGLISH).
 * `message` is the reminder's, quoted (one line, at most 80 characters).
 */
export type AuditDetail =
  | { kind: 'created' | 'edited' | 'paused' | 'resumed' | 'deleted' | 'pausedHere' | 'resumedHere' | 'formerMemberPaused'; params: { message: string } }
  | { kind: 'removed' | 'removedEnded'; params: { message: string; channels: string } }
  | { kind: 'tookOver'; params: { message: string; creator: string; source: string } }
  | { kind: 'settings'; params: { fields: string } }
  | { kind: 'formerMemberPausedAll'; params: { creator: string } };

export type AuditKind = AuditDetail['kind'];

const AUDIT_ENGLISH: Record<AuditKind, string> = {
  created: 'Created "{message}"',
  edited: 'Edited "{message}"',
  paused: 'Paused "{message}"',
  resumed: 'Resumed "{message}"',
  deleted: 'Deleted "{message}"',
  pausedHere: 'Paused "{message}" in this server',
  resumedHere: 'Resumed "{message}" in this server',
  formerMemberPaused: 'Paused "{message}": its creator is no longer in the server',
  removed: 'Removed "{message}" from {channels}',
  removedEnded: 'Removed "{message}" from {channels}; it no longer fires',
  tookOver: 'Took over "{message}" from {creator} (was reminder {source})',
  settings: 'Changed {fields}',
  formerMemberPausedAll: 'Paused the reminders of {creator}: no longer in the server',
};

/** Every kind, for the API's schema of an entry. */
export const AUDIT_KINDS = Object.keys(AUDIT_ENGLISH) as AuditKind[];

/** The entry in English: the API's `summary`. */
export function auditSummary(detail: AuditDetail): string {
  const params = detail.params as Record<string, string>;
  return AUDIT_ENGLISH[detail.kind].replace(/\{(\w+)\}/g, (_, name: string) => (name === 'fields' ? params.fields!.split(',').join(', ') : (params[name] ?? '')));
}

export interface ServerChange {
  guildIds: Iterable<string | null>;
  actorAccountId: string;
  action: ServerAuditAction;
  reminderId: string | null;
  detail: AuditDetail;
}

/** Records one change in each server it touched (none: nothing to record). */
export async function recordServerChange(db: Executor, change: ServerChange): Promise<void> {
  const guilds = [...new Set([...change.guildIds].filter((g): g is string => !!g))];
  if (guilds.length === 0) return;
  const identity = await findIdentity(db, change.actorAccountId, 'discord');
  const at = new Date().toISOString();
  await insertServerAudit(
    db,
    guilds.map((guildId) => ({
      id: newId(),
      guild_id: guildId,
      at,
      actor_account_id: change.actorAccountId,
      actor_discord_user_id: identity?.external_id ?? null,
      actor_username: identity?.username ?? null,
      action: change.action,
      reminder_id: change.reminderId,
      summary: auditSummary(change.detail).slice(0, 500),
      detail: JSON.stringify(change.detail),
    })),
  );
}

/** The servers a reminder's destinations post in. */
export const guildsOf = (destinations: ReadonlyArray<Pick<Destination, 'guild_id'>>) => destinations.map((d) => d.guild_id);

/** A reminder's message as an audit entry quotes it: one line, at most 80 characters. */
export function quoted(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export interface AuditView {
  at: string;
  actor: { discord_user_id: string | null; username: string | null };
  action: ServerAuditAction;
  reminder_id: string | null;
  summary: string;
  detail: AuditDetail | null;
}

function detailOf(text: string | null): AuditDetail | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as AuditDetail;
  } catch {
    return null;
  }
}

const present = (e: ServerAuditEntry): AuditView => ({
  at: e.at,
  actor: { discord_user_id: e.actor_discord_user_id, username: e.actor_username },
  action: e.action,
  reminder_id: e.reminder_id,
  summary: e.summary,
  detail: detailOf(e.detail),
});

function decodeCursor(text: string): { at: string; id: string } {
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || Number.isNaN(Date.parse(at))) throw new AppError('CURSOR_INVALID', 'before must be a next_cursor of an earlier page');
  return { at, id };
}

/** One page of the server's audit log, newest first (managers). Older entries than 90 days are forgotten here. */
export async function serverAuditPage(
  deps: ServerDeps,
  accountId: string,
  guildId: string,
  page: { limit?: number | undefined; before?: string | undefined },
): Promise<{ entries: AuditView[]; next_cursor: string | null }> {
  await manageServer(deps, accountId, guildId);
  const limit = page.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit must be between 1 and 100');
  const before = page.before ? decodeCursor(page.before) : undefined;
  const since = new Date(Date.now() - AUDIT_RETENTION_DAYS * DAY_MS).toISOString();
  await deleteServerAuditBefore(deps.db, since);
  const rows = await listServerAudit(deps.db, guildId, { limit: limit + 1, since, before });
  const entries = rows.slice(0, limit);
  const last = entries[entries.length - 1];
  return {
    entries: entries.map(present),
    next_cursor: rows.length > limit && last ? Buffer.from(`${last.at}|${last.id}`, 'utf8').toString('base64url') : null,
  };
}
