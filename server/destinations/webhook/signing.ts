/** Standard Webhooks signing of generic webhook bodies (webhook-signature header). */
import { createHmac } from 'node:crypto';

const secretKeys = new Map<string, Buffer>();

/** The HMAC key of a Standard Webhooks secret: the base64 part after `whsec_`, decoded. */
export function secretKey(secret: string): Buffer {
  let key = secretKeys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
    if (secretKeys.size > 10_000) secretKeys.clear();
    secretKeys.set(secret, key);
  }
  return key;
}

/**
 * Whether a secret given back by a client is one Chime could have issued: `whsec_` and the
 * canonical base64 of 24 to 64 bytes. A wizard's test send issues the secret before the webhook is
 * saved (docs/webhooks.md "Signatures"); the save then keeps it, so the test and every later
 * delivery are signed alike.
 */
export function isWebhookSecret(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith('whsec_') || value.length > 100) return false;
  const key = Buffer.from(value.slice(6), 'base64');
  return key.length >= 24 && key.length <= 64 && key.toString('base64') === value.slice(6);
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per the Standard Webhooks spec. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
