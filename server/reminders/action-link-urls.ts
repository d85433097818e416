/**
 * The signing half of action links (action-links.ts): the server's key and the links of one
 * delivery. Apart from the rest so a delivery thread's senders load no more than this.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { type LinkAction, signActionToken } from '../lib/action-token.ts';
import { ensureServerSecret } from '../repositories/server-secrets.ts';

const SECRET_NAME = 'action_links';

// One secret per database, read once per thread (the API thread and each delivery thread).
const secrets = new WeakMap<object, Promise<string>>();

/** The server's action-link key: made at first use and stored, so every instance and thread signs alike. */
export function actionLinkSecret(db: Kysely<Database>): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = ensureServerSecret(db, SECRET_NAME, randomBytes(32).toString('base64url'), new Date().toISOString());
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

export const actionLinkPath = (token: string) => `/a/${token}`;

/** The three tokens of one delivered occurrence, by action (a chat button refers to one: server/lib/action-token.ts). */
export async function actionTokensFor(
  deps: { db: Kysely<Database> },
  delivery: { deliveryId: string; reminderId: string; occurrenceUtc: string },
): Promise<Record<LinkAction, string>> {
  const secret = await actionLinkSecret(deps.db);
  const occurrenceMs = Date.parse(delivery.occurrenceUtc);
  const token = (action: LinkAction) => signActionToken(secret, { deliveryId: delivery.deliveryId, reminderId: delivery.reminderId, occurrenceMs, action });
  return { snooze10: token('snooze10'), tomorrow: token('tomorrow'), done: token('done') };
}

/** The three links of one delivered occurrence, by action: absolute URLs under PUBLIC_URL. */
export async function actionLinksFor(
  deps: { db: Kysely<Database>; config: { publicUrl: string } },
  delivery: { deliveryId: string; reminderId: string; occurrenceUtc: string },
): Promise<Record<LinkAction, string>> {
  const tokens = await actionTokensFor(deps, delivery);
  const base = deps.config.publicUrl.replace(/\/+$/, '');
  return { snooze10: base + actionLinkPath(tokens.snooze10), tomorrow: base + actionLinkPath(tokens.tomorrow), done: base + actionLinkPath(tokens.done) };
}
