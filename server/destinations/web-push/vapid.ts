/**
 * The server's VAPID key pair (RFC 8292): made at first use, stored in `server_secrets` as `vapid`
 * so every instance and delivery thread signs with the same key, and a browser's subscription (made
 * with the public key) keeps working after a restart. The private key is never logged nor answered.
 */
import type { Kysely } from 'kysely';
import webPush from 'web-push';
import type { Database } from '../../db/database.ts';
import { ensureServerSecret } from '../../repositories/server-secrets.ts';

const SECRET_NAME = 'vapid';

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url (87 characters): what a browser's `applicationServerKey` takes. */
  publicKey: string;
  /** The private scalar, base64url. */
  privateKey: string;
}

// One key pair per database, read once per thread (the API thread and each delivery thread).
const cache = new WeakMap<object, Promise<VapidKeys>>();

function candidate(): string {
  const { publicKey, privateKey } = webPush.generateVAPIDKeys();
  return JSON.stringify({ publicKey, privateKey });
}

export function vapidKeys(db: Kysely<Database>): Promise<VapidKeys> {
  let keys = cache.get(db);
  if (!keys) {
    // The first writer's pair wins: parallel instances starting together agree on one.
    keys = ensureServerSecret(db, SECRET_NAME, candidate(), new Date().toISOString()).then((text) => JSON.parse(text) as VapidKeys);
    cache.set(db, keys);
    keys.catch(() => cache.delete(db));
  }
  return keys;
}
