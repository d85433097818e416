/**
 * "Will this destination work?" before it is saved: the wizard asks when a destination is added,
 * so a problem shows next to it instead of at Create. Runs exactly the checks a create runs (the
 * module's metadata rules, then its preflight), and answers a failure as data.
 */
import type { FastifyInstance } from 'fastify';
import { parseDestinations, preflightDestinations } from '../destinations/validate.ts';
import { AppError } from '../errors.ts';
import { listIdentities } from '../repositories/accounts.ts';
import { getReminder } from './service.ts';

export type DestinationCheckDeps = Pick<FastifyInstance, 'db' | 'config' | 'discord' | 'log'>;

export type DestinationCheck =
  | { ok: true }
  /** `code`: the precise reason (DISCORD_CANNOT_POST, WEBHOOK_TARGET_FORBIDDEN...); `params`: names a translation quotes. */
  | { ok: false; code: string; error: string; params?: Record<string, string> };

export async function checkDestination(
  deps: DestinationCheckDeps,
  accountId: string,
  input: { type: string; metadata: Record<string, unknown>; reminder_id?: string | undefined; id?: string | undefined },
): Promise<DestinationCheck> {
  const identities = await listIdentities(deps.db, accountId);
  // A saved destination being edited (its reminder and its id): one sent without its credential is
  // checked with the stored one, as the save will check it. Another account's reminder, or an id
  // that is not one of its destinations, is a 404 like everywhere else, not a check that failed.
  let stored: Array<{ id: string; type: string; secret: string | null }> = [];
  if (input.reminder_id !== undefined || input.id !== undefined) {
    if (input.reminder_id === undefined || input.id === undefined) throw new AppError('VALIDATION_FAILED', 'reminder_id and id go together: the saved destination being edited');
    const reminder = await getReminder(deps, accountId, input.reminder_id);
    const destination = reminder.destinations.find((d) => d.id === input.id && d.type === input.type);
    if (!destination) throw new AppError('DESTINATION_NOT_FOUND', 'Destination not found');
    stored = [destination];
  }
  try {
    const destinations = parseDestinations([{ ...(input.id !== undefined ? { id: input.id } : {}), type: input.type, metadata: input.metadata }], {
      hasDiscordIdentity: identities.some((i) => i.provider === 'discord'),
      allowPrivateWebhookTargets: deps.config.webhookAllowPrivateTargets,
    });
    // A preflight only checks: an email address's confirmation link goes out when a reminder with
    // it is saved (the wizard says so), not here.
    await preflightDestinations(deps, accountId, destinations, stored);
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
