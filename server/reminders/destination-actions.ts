/**
 * What a reminder's owner can do to one destination besides saving it: send a test message
 * (saved or not yet saved) and rotate a webhook's signing secret. Another account's reminder or
 * destination is "not found", exactly like the reminders service.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { newWebhookSecret } from '../lib/ids.ts';
import { RateWindow } from '../coordination/rate-window.ts';
import { checkWebhookUrl } from '../net/address-policy.ts';
import { findAccountById } from '../repositories/accounts.ts';
import { clearDestinationDisabled, findDestinationOfAccount, setDestinationSecret } from '../repositories/destinations.ts';
import { webhookDestination, type WebhookPlatform, webhookTestSecret } from '../destinations/webhook/index.ts';
import type { TestOutcome } from '../scheduler/types.ts';
import { parseJsonObject } from '../lib/json-object.ts';

export type DestinationActionDeps = Pick<FastifyInstance, 'db' | 'scheduler' | 'config'>;

// -------------------------------------------------------------------------------------------
// Test rate limit: per account, so the test endpoints cannot be used to aim traffic at a third party.

const TEST_LIMIT = 10;
const TEST_WINDOW_MS = 60_000;

/** One counter per database (shared by every instance on it): test sends and resends per account. */
const testWindows = new WeakMap<object, RateWindow>();

async function takeTestSlot(deps: Pick<DestinationActionDeps, 'db'>, accountId: string): Promise<void> {
  let window = testWindows.get(deps.db);
  if (!window) {
    window = new RateWindow(deps.db, 'manual_send', TEST_LIMIT, TEST_WINDOW_MS);
    testWindows.set(deps.db, window);
  }
  const wait = await window.hit(accountId);
  if (wait !== null) throw new AppError('RATE_LIMITED', `Too many test messages. Try again in ${Math.ceil(wait / 1000)} s.`);
}

/** Resends share the test budget: both are messages sent by hand to a target the owner chose. */
export const takeManualSendSlot = takeTestSlot;

// -------------------------------------------------------------------------------------------

async function ownedDestination(deps: Pick<DestinationActionDeps, 'db'>, accountId: string, reminderId: string, destinationId: string) {
  const found = await findDestinationOfAccount(deps.db, accountId, reminderId, destinationId);
  if (!found) throw new AppError('REMINDER_NOT_FOUND', 'Reminder not found');
  if (!found.destination) throw new AppError('DESTINATION_NOT_FOUND', 'Destination not found');
  return { reminder: found.reminder, destination: found.destination };
}

export interface UnsavedWebhook {
  url: string;
  platform: WebhookPlatform;
  username?: string | undefined;
  /** The secret an earlier test of this webhook was signed with; a new one without. */
  secret?: string | undefined;
  /** A generic webhook's body template and extra headers (docs/notifications.md): the test sends what deliveries will. */
  body_template?: string | null | undefined;
  body_format?: string | null | undefined;
  headers?: Record<string, unknown> | null | undefined;
}

/** Sends a test payload to a webhook that is not saved yet. A failing target is data, not an error. */
export async function testUnsavedWebhook(deps: DestinationActionDeps, accountId: string, target: UnsavedWebhook): Promise<TestOutcome & { secret: string }> {
  const problem = checkWebhookUrl(target.url, deps.config.webhookAllowPrivateTargets);
  if (problem) throw new AppError(problem.code, problem.message);
  // The webhook module's rules for the template and headers (placeholders, header names, generic
  // webhooks only), as a save would apply them.
  const shaped = webhookDestination.parseMetadata(
    { url: target.url, platform: target.platform, body_template: target.body_template, body_format: target.body_format, headers: target.headers },
    'webhook',
    { allowPrivateWebhookTargets: deps.config.webhookAllowPrivateTargets, hasDiscordIdentity: false },
  );
  const shape = { body_template: shaped.body_template, body_format: shaped.body_format, headers: shaped.headers };
  const secret = webhookTestSecret(target.secret);
  await takeTestSlot(deps, accountId);
  const result = await deps.scheduler.testWebhook({ url: target.url, platform: target.platform, username: target.username?.trim() || undefined, secret, shape });
  // Signed like a saved webhook: the client keeps the secret and saves the webhook with it.
  return { ...result, secret };
}

/**
 * Sends a test message to a saved destination (with its signing secret). A success re-enables a
 * destination the scheduler had disabled: the owner fixed the target and proved it works.
 */
export async function testSavedDestination(deps: DestinationActionDeps, accountId: string, reminderId: string, destinationId: string): Promise<TestOutcome> {
  const { reminder, destination } = await ownedDestination(deps, accountId, reminderId, destinationId);
  const metadata = parseJsonObject(destination.metadata);
  if (destination.type === 'webhook') {
    const problem = checkWebhookUrl(typeof metadata.url === 'string' ? metadata.url : '', deps.config.webhookAllowPrivateTargets);
    if (problem) return { ok: false, error: problem.message };
  }
  await takeTestSlot(deps, accountId);
  const account = await findAccountById(deps.db, accountId);
  const result = await deps.scheduler.testDestination(
    { id: destination.id, type: destination.type, metadata, secret: destination.secret },
    {
      accountId,
      username: account?.username ?? '',
      timezone: account?.timezone ?? 'UTC',
      locale: account?.locale ?? null,
      message: `Test from Chime: ${reminder.message}`,
    },
  );
  if (result.ok && destination.disabled_at) {
    await clearDestinationDisabled(deps.db, destination.id);
    deps.scheduler.destinationEnabled(destination.id);
  }
  return result;
}

/** Gives a webhook destination a new signing secret; the old one stops working at once. */
export async function rotateDestinationSecret(
  deps: Pick<DestinationActionDeps, 'db'>,
  accountId: string,
  reminderId: string,
  destinationId: string,
): Promise<{ secret: string }> {
  const { destination } = await ownedDestination(deps, accountId, reminderId, destinationId);
  if (destination.type !== 'webhook') throw new AppError('INVALID_DESTINATION', 'Only webhook destinations have a signing secret');
  const secret = newWebhookSecret();
  await setDestinationSecret(deps.db, destination.id, secret);
  return { secret };
}
