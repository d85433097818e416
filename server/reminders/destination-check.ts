/**
 * "Will this destination work?" before it is saved: the wizard asks when a destination is added,
 * so a problem shows next to it instead of at Create. Runs exactly the checks a create runs (the
 * module's metadata rules, then its preflight), and answers a failure as data.
 */
import type { FastifyInstance } from 'fastify';
import { parseDestinations, preflightDestinations } from '../destinations/validate.ts';
import { AppError } from '../errors.ts';
import { listIdentities } from '../repositories/accounts.ts';

export type DestinationCheckDeps = Pick<FastifyInstance, 'db' | 'config' | 'discord' | 'log'>;

export type DestinationCheck =
  | { ok: true }
  /** `code`: the precise reason (DISCORD_CANNOT_POST, WEBHOOK_TARGET_FORBIDDEN...); `params`: names a translation quotes. */
  | { ok: false; code: string; error: string; params?: Record<string, string> };

export async function checkDestination(
  deps: DestinationCheckDeps,
  accountId: string,
  input: { type: string; metadata: Record<string, unknown> },
): Promise<DestinationCheck> {
  const identities = await listIdentities(deps.db, accountId);
  try {
    const destinations = parseDestinations([input], {
      hasDiscordIdentity: identities.some((i) => i.provider === 'discord'),
      allowPrivateWebhookTargets: deps.config.webhookAllowPrivateTargets,
    });
    // A preflight only checks: an email address's confirmation link goes out when a reminder with
    // it is saved (the wizard says so), not here.
    await preflightDestinations(deps, accountId, destinations);
    return { ok: true };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const reason = typeof err.details?.reason === 'string' ? err.details.reason : err.code;
    const params = err.details?.params as Record<string, string> | undefined;
    // "destinations[0].metadata.url ...": the wizard shows this next to the one destination.
    const error = err.message.replace(/^destinations\[0\]\.(metadata\.)?/, '');
    return { ok: false, code: reason, error, ...(params ? { params } : {}) };
  }
}
