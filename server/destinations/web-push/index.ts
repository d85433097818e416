/**
 * Browser push (Web Push, docs/notifications.md "Browser push"): a browser's PushSubscription,
 * made by the dashboard with the server's VAPID public key. Metadata `{ endpoint, keys: { p256dh,
 * auth }, browser, os }`; the client sends `user_agent` when it subscribes, and only the browser's
 * and system's names are kept. The endpoint is a push service's address (FCM, Mozilla, Apple,
 * Microsoft): public hosts, so it goes through the SSRF guard like a webhook's URL.
 */
import { AppError } from '../../errors.ts';
import { checkWebhookUrl } from '../../net/address-policy.ts';
import type { DestinationModule } from '../types.ts';
import { BROWSERS, browserOf, SYSTEMS, systemOf } from './device.ts';
import { webPushSenderOf } from './sender.ts';

/** RFC 8291: the browser's P-256 public key (uncompressed point) and its 16-byte authentication secret. */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function keyBytes(raw: unknown, field: string, length: number): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const bytes = BASE64URL.test(text) ? Buffer.from(text, 'base64url') : null;
  if (!bytes || bytes.length !== length || (length === P256DH_BYTES && bytes[0] !== 0x04)) {
    throw new AppError('INVALID_DESTINATION', `${field} must be the subscription's key: ${length} bytes in base64url`);
  }
  return bytes.toString('base64url');
}

export const webPushDestination: DestinationModule = {
  type: 'web_push',
  cap: 5,
  noun: 'browser push',
  requiresDiscordIdentity: false,
  parseMetadata(meta, where, ctx) {
    const endpoint = typeof meta.endpoint === 'string' ? meta.endpoint.trim() : '';
    if (!endpoint) throw new AppError('PUSH_SERVER_INVALID', `${where}.metadata.endpoint is required`);
    const problem = checkWebhookUrl(endpoint, ctx.allowPrivateWebhookTargets);
    if (problem) {
      const message = problem.message.replace(/^Webhook (URL|target)/, 'Push endpoint');
      throw new AppError(problem.code === 'WEBHOOK_TARGET_FORBIDDEN' ? 'PUSH_TARGET_FORBIDDEN' : 'PUSH_SERVER_INVALID', `${where}.metadata.endpoint: ${message}`);
    }
    // Push services are https. Plain http only where the administrator opened private targets (a test push service).
    if (new URL(endpoint).protocol !== 'https:' && !ctx.allowPrivateWebhookTargets) throw new AppError('PUSH_SERVER_INVALID', `${where}.metadata.endpoint must be an https address`);
    const keys = (typeof meta.keys === 'object' && meta.keys !== null ? meta.keys : {}) as Record<string, unknown>;
    const p256dh = keyBytes(keys.p256dh, `${where}.metadata.keys.p256dh`, P256DH_BYTES);
    const auth = keyBytes(keys.auth, `${where}.metadata.keys.auth`, AUTH_BYTES);
    const ua = typeof meta.user_agent === 'string' ? meta.user_agent : null;
    // A destination sent back (an edited reminder) has the names, not the user agent: kept when they are names Chime gives.
    const browser = ua !== null ? browserOf(ua) : (BROWSERS as readonly unknown[]).includes(meta.browser) ? (meta.browser as string) : 'Browser';
    const os = ua !== null ? systemOf(ua) : (SYSTEMS as readonly unknown[]).includes(meta.os) ? (meta.os as string) : 'Unknown';
    return { endpoint, keys: { p256dh, auth }, browser, os };
  },
  createSender: webPushSenderOf,
  label(meta) {
    const where = meta.os && meta.os !== 'Unknown' ? ` on ${String(meta.os)}` : '';
    return `Browser push ${String(meta.browser ?? 'Browser')}${where}`;
  },
};
