/** The address of a self-hosted push server, checked like a webhook's (server/net/address-policy.ts). */
import { AppError } from '../../errors.ts';
import { checkWebhookUrl } from '../../net/address-policy.ts';

/**
 * A server URL as stored: http(s), no credentials, no query, no trailing slash; refused with
 * PUSH_SERVER_INVALID, or PUSH_TARGET_FORBIDDEN for a private address while the SSRF guard is on.
 */
export function parseServerUrl(raw: unknown, field: string, allowPrivateTargets: boolean, fallback?: string): string {
  const text = typeof raw === 'string' && raw.trim() ? raw.trim() : fallback;
  if (!text) throw new AppError('PUSH_SERVER_INVALID', `${field} is required`);
  const problem = checkWebhookUrl(text, allowPrivateTargets);
  if (problem) {
    const message = problem.message.replace(/^Webhook (URL|target)/, 'Server address');
    throw new AppError(problem.code === 'WEBHOOK_TARGET_FORBIDDEN' ? 'PUSH_TARGET_FORBIDDEN' : 'PUSH_SERVER_INVALID', `${field}: ${message}`);
  }
  const url = new URL(text);
  if (url.search || url.hash) throw new AppError('PUSH_SERVER_INVALID', `${field} must not have a query or a fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A credential as the user typed it: printable ASCII without spaces, at most `max` characters. */
export function parseCredential(raw: unknown, field: string, max = 200): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text || text.length > max || !/^[\x21-\x7e]+$/.test(text)) throw new AppError('INVALID_DESTINATION', `${field} must be up to ${max} visible characters without spaces`);
  return text;
}

/** What the dashboard shows of a stored credential: its last four characters. */
export const credentialHint = (secret: string) => `…${secret.slice(-4)}`;

/** A hint sent back by the dashboard (it never has the credential itself). */
export function keptHint(raw: unknown): string | undefined {
  return typeof raw === 'string' && /^…[\x21-\x7e]{1,4}$/.test(raw) ? raw : undefined;
}
