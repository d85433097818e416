/**
 * Pushover (docs/notifications.md "Pushover"): metadata `{ user_key, device?, priority?,
 * token_hint? }`; the application's API token is given as `app_token` and kept in the secret
 * column. Where Pushover is is not the user's to choose: config.pushoverApiUrl.
 */
import { AppError } from '../../errors.ts';
import { checkRequest } from '../push-common/check.ts';
import { credentialHint, keptHint, parseCredential } from '../push-common/server-url.ts';
import type { DestinationModule } from '../types.ts';
import { PUSHOVER_USER_AGENT, pushoverSenderOf, readPushoverRefusal } from './sender.ts';

/** Pushover's user and group keys, and application tokens: 30 letters and digits. */
const KEY = /^[A-Za-z0-9]{30}$/;
const DEVICE = /^[A-Za-z0-9_-]{1,25}$/;

export const pushoverDestination: DestinationModule = {
  type: 'pushover',
  cap: 5,
  noun: 'Pushover',
  requiresDiscordIdentity: false,
  secretField: 'app_token',
  parseMetadata(meta, where) {
    const userKey = typeof meta.user_key === 'string' ? meta.user_key.trim() : '';
    if (!KEY.test(userKey)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.user_key must be your 30-character Pushover user (or group) key`);
    const out: Record<string, unknown> = { user_key: userKey };
    const device = typeof meta.device === 'string' ? meta.device.trim() : '';
    if (device) {
      if (!DEVICE.test(device)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.device must be a Pushover device name (up to 25 letters, digits, - or _)`);
      out.device = device;
    }
    if (meta.priority !== undefined && meta.priority !== null && meta.priority !== '') {
      const priority = Number(meta.priority);
      // 2 (emergency) needs retry and expire parameters and an acknowledgement: not offered.
      if (!Number.isInteger(priority) || priority < -2 || priority > 1) throw new AppError('INVALID_DESTINATION', `${where}.metadata.priority must be -2 to 1`);
      if (priority !== 0) out.priority = priority;
    }
    const token = parseCredential(meta.app_token, `${where}.metadata.app_token`);
    if (token !== undefined && !KEY.test(token)) throw new AppError('INVALID_DESTINATION', `${where}.metadata.app_token must be the 30-character API token of your Pushover application`);
    const hint = token ? credentialHint(token) : keptHint(meta.token_hint);
    if (!hint) throw new AppError('INVALID_DESTINATION', `${where}.metadata.app_token is required: create an application on pushover.net and paste its API token`);
    out.token_hint = hint;
    if (token) out.app_token = token;
    return out;
  },
  /** Pushover's own check of a user key (and device) for an application token: `POST /1/users/validate.json`. */
  async preflight(deps, _accountId, metadata, secret) {
    if (!secret) throw new AppError('INVALID_DESTINATION', 'The Pushover application token is required');
    const form = new URLSearchParams({ token: secret, user: String(metadata.user_key), ...(metadata.device ? { device: String(metadata.device) } : {}) });
    await checkRequest(deps.config, 'PUSHOVER', new URL('/1/users/validate.json', deps.config.pushoverApiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': PUSHOVER_USER_AGENT },
      body: form.toString(),
    }, [], (answer) => readPushoverRefusal(answer.status, answer.text));
  },
  createSender: pushoverSenderOf,
  label(meta) {
    return `Pushover ${typeof meta.user_key === 'string' ? `${meta.user_key.slice(0, 4)}…` : ''}${meta.device ? ` (${String(meta.device)})` : ''}`.trim();
  },
};
