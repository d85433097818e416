/**
 * ntfy (docs/notifications.md "ntfy"): ntfy.sh or a self-hosted server. Metadata `{ server,
 * topic, priority?, tags?, token_hint? }`; the optional access token is given as `access_token`
 * and kept in the secret column (the API only ever shows `token_hint`, its last 4 characters).
 */
import { AppError } from '../../errors.ts';
import { credentialHint, keptHint, parseCredential, parseServerUrl } from '../push-common/server-url.ts';
import type { DestinationModule } from '../types.ts';
import { checkNtfy } from './check.ts';
import { ntfySenderOf } from './sender.ts';

export const NTFY_DEFAULT_SERVER = 'https://ntfy.sh';
/** ntfy's own rule for topic names. */
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const TAG = /^[^,\s][^,]{0,39}$/;

export const ntfyDestination: DestinationModule = {
  type: 'ntfy',
  cap: 5,
  noun: 'ntfy',
  requiresDiscordIdentity: false,
  secretField: 'access_token',
  parseMetadata(meta, where, ctx) {
    const server = parseServerUrl(meta.server, `${where}.metadata.server`, ctx.allowPrivateWebhookTargets, NTFY_DEFAULT_SERVER);
    const topic = typeof meta.topic === 'string' ? meta.topic.trim() : '';
    if (!TOPIC.test(topic)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.topic must be 1 to 64 letters, digits, - or _`);
    const out: Record<string, unknown> = { server, topic };
    if (meta.priority !== undefined && meta.priority !== null && meta.priority !== '') {
      const priority = Number(meta.priority);
      if (!Number.isInteger(priority) || priority < 1 || priority > 5) throw new AppError('INVALID_DESTINATION', `${where}.metadata.priority must be 1 (min) to 5 (max)`);
      if (priority !== 3) out.priority = priority;
    }
    if (meta.tags !== undefined && meta.tags !== null && meta.tags !== '') {
      const raw = typeof meta.tags === 'string' ? meta.tags.split(',') : Array.isArray(meta.tags) ? meta.tags : null;
      const tags = raw?.map((t) => (typeof t === 'string' ? t.trim() : '')).filter((t) => t !== '');
      if (!tags || tags.length > 5 || !tags.every((t) => TAG.test(t))) throw new AppError('INVALID_DESTINATION', `${where}.metadata.tags must be up to 5 tags of at most 40 characters, without commas`);
      if (tags.length) out.tags = tags;
    }
    const token = parseCredential(meta.access_token, `${where}.metadata.access_token`);
    const hint = token ? credentialHint(token) : keptHint(meta.token_hint);
    if (hint) out.token_hint = hint;
    if (token) out.access_token = token;
    return out;
  },
  preflight: (deps, _accountId, metadata, secret) => checkNtfy(deps.config, metadata, secret),
  createSender: ntfySenderOf,
  label(meta) {
    try {
      return `ntfy ${new URL(String(meta.server)).host}/${String(meta.topic)}`;
    } catch {
      return 'ntfy';
    }
  },
};
