/**
 * Gotify (docs/notifications.md "Gotify"): a self-hosted server. Metadata `{ server, priority?,
 * token_hint? }`; the application token is given as `app_token` and kept in the secret column.
 */
import { AppError } from '../../errors.ts';
import { checkRequest } from '../push-common/check.ts';
import { credentialHint, keptHint, parseCredential, parseServerUrl } from '../push-common/server-url.ts';
import type { DestinationModule } from '../types.ts';
import { GOTIFY_USER_AGENT, gotifySenderOf } from './sender.ts';

export const gotifyDestination: DestinationModule = {
  type: 'gotify',
  cap: 5,
  noun: 'Gotify',
  requiresDiscordIdentity: false,
  secretField: 'app_token',
  parseMetadata(meta, where, ctx) {
    const server = parseServerUrl(meta.server, `${where}.metadata.server`, ctx.allowPrivateWebhookTargets);
    const out: Record<string, unknown> = { server };
    if (meta.priority !== undefined && meta.priority !== null && meta.priority !== '') {
      const priority = Number(meta.priority);
      if (!Number.isInteger(priority) || priority < 0 || priority > 10) throw new AppError('INVALID_DESTINATION', `${where}.metadata.priority must be 0 to 10`);
      out.priority = priority;
    }
    const token = parseCredential(meta.app_token, `${where}.metadata.app_token`);
    const hint = token ? credentialHint(token) : keptHint(meta.token_hint);
    if (!hint) throw new AppError('INVALID_DESTINATION', `${where}.metadata.app_token is required: create an application in Gotify and paste its token`);
    out.token_hint = hint;
    if (token) out.app_token = token;
    return out;
  },
  /**
   * Gotify checks the token before the body: an empty `POST /message` answers 400 (no message)
   * to a good application token and 401 to a wrong one, and nobody is notified.
   */
  async preflight(deps, _accountId, metadata, secret) {
    if (!secret) throw new AppError('INVALID_DESTINATION', 'The Gotify application token is required');
    const headers = { 'user-agent': GOTIFY_USER_AGENT, 'content-type': 'application/json', 'x-gotify-key': secret };
    await checkRequest(deps.config, 'GOTIFY', new URL(`${String(metadata.server)}/message`), { method: 'POST', headers, body: '{}' }, [400]);
  },
  createSender: gotifySenderOf,
  label(meta) {
    try {
      return `Gotify ${new URL(String(meta.server)).host}`;
    } catch {
      return 'Gotify';
    }
  },
};
