import { AppError } from '../../errors.ts';
import { newWebhookSecret } from '../../lib/ids.ts';
import { checkWebhookUrl } from '../../net/address-policy.ts';
import type { DestinationModule } from '../types.ts';
import { webhookSenderOf } from './sender.ts';
import { isWebhookSecret } from './signing.ts';
import { parseHeaders, parseTemplate } from './template.ts';

export const WEBHOOK_PLATFORMS = ['generic', 'discord', 'slack'] as const;
export type WebhookPlatform = (typeof WEBHOOK_PLATFORMS)[number];

/** The platform of stored webhook metadata; anything unknown is a generic webhook. */
export function webhookPlatform(metadata: Record<string, unknown>): WebhookPlatform {
  const p = metadata.platform;
  return p === 'discord' || p === 'slack' ? p : 'generic';
}

/** Generic (signed JSON), Discord or Slack webhooks; see docs/webhooks.md "Payload". */
export const webhookDestination: DestinationModule = {
  type: 'webhook',
  cap: 5,
  noun: 'webhook',
  requiresDiscordIdentity: false,
  parseMetadata(meta, where, ctx) {
    const url = typeof meta.url === 'string' ? meta.url.trim() : '';
    if (!url) throw new AppError('WEBHOOK_URL_INVALID', `${where}.metadata.url is required`);
    const problem = checkWebhookUrl(url, ctx.allowPrivateWebhookTargets);
    if (problem) throw new AppError(problem.code, problem.message);
    const platform = meta.platform === undefined || meta.platform === '' ? 'generic' : String(meta.platform);
    if (!(WEBHOOK_PLATFORMS as readonly string[]).includes(platform)) {
      throw new AppError('INVALID_DESTINATION', `${where}.metadata.platform must be one of ${WEBHOOK_PLATFORMS.join(', ')}`);
    }
    const username = typeof meta.username === 'string' ? meta.username.trim() : '';
    if (username && platform === 'generic') {
      throw new AppError('INVALID_DESTINATION', `${where}.metadata.username is only used by discord and slack webhooks`);
    }
    if (username.length > 80) throw new AppError('INVALID_DESTINATION', `${where}.metadata.username must be at most 80 characters`);
    const template = parseTemplate(meta.body_template, meta.body_format, where);
    const headers = parseHeaders(meta.headers, where);
    if ((template || headers) && platform !== 'generic') {
      throw new AppError('INVALID_DESTINATION', `${where}.metadata: a body template and extra headers are for generic webhooks only`);
    }
    // The signing secret a test send issued before the save (webhookTestSecret below).
    const secret = meta.secret === undefined ? {} : { secret: givenSecret(meta.secret, `${where}.metadata.secret`) };
    return { url, platform, ...(username ? { username } : {}), ...(template ?? {}), ...(headers ? { headers } : {}), ...secret };
  },
  secretField: 'secret',
  issueSecret: newWebhookSecret,
  createSender: webhookSenderOf,
  label(meta) {
    try {
      return `${webhookPlatform(meta)} webhook ${new URL(String(meta.url)).host}`;
    } catch {
      return 'webhook';
    }
  },
};

/** A secret a client sent back, if Chime could have issued it; else 400 WEBHOOK_SECRET_INVALID naming `field`. */
function givenSecret(value: unknown, field: string): string {
  if (!isWebhookSecret(value)) throw new AppError('WEBHOOK_SECRET_INVALID', `${field} must be a signing secret Chime issued (whsec_...)`);
  return value;
}

/** The secret an unsaved webhook's test is signed with: the one the client was given, or a new one. */
export function webhookTestSecret(given: string | undefined): string {
  return given === undefined ? newWebhookSecret() : givenSecret(given, 'secret');
}
