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

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per the Standard Webhooks spec. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
