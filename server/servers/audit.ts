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

export interface ServerChange {
  guildIds: Iterable<string | null>;
  actorAccountId: string;
  action: ServerAuditAction;
  reminderId: string | null;
  summary: string;
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
      summary: change.summary.slice(0, 500),
    })),
  );
}

/** The servers a reminder's destinations post in. */
export const guildsOf = (destinations: ReadonlyArray<Pick<Destination, 'guild_id'>>) => destinations.map((d) => d.guild_id);

/** A reminder's message as an audit entry quotes it: one line, at most 80 characters. */
export function quoted(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return `"${line.length > 80 ? `${line.slice(0, 79)}…` : line}"`;
}

export interface AuditView {
  at: string;
  actor: { discord_user_id: string | null; username: string | null };
  action: ServerAuditAction;
  reminder_id: string | null;
  summary: string;
}

const present = (e: ServerAuditEntry): AuditView => ({
  at: e.at,
  actor: { discord_user_id: e.actor_discord_user_id, username: e.actor_username },
  action: e.action,
  reminder_id: e.reminder_id,
  summary: e.summary,
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
