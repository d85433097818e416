/**
 * Test sends ("does this destination work?"): the API waits for the answer, so they run in the
 * API's thread with its own senders, whichever thread delivers reminders.
 */
import type { DestinationType } from '../db/database.ts';
import { newMessageId } from './ids.ts';
import { type DestinationSender, SEND_CODES, type SendContext, type TestOutcome } from './types.ts';

export interface TestableDestination {
  id?: string;
  type: DestinationType;
  metadata: Record<string, unknown>;
  secret: string | null;
}

export interface TestContext {
  accountId: string;
  username: string;
  timezone: string;
  locale: string | null;
  message?: string;
}

export type WebhookTestTarget = {
  url: string;
  platform: 'generic' | 'discord' | 'slack';
  username?: string | undefined;
  secret?: string | undefined;
  /** A generic webhook's validated body template, format and extra headers (webhook/template.ts). */
  shape?: { body_template?: unknown; body_format?: unknown; headers?: unknown } | undefined;
};

const DEFAULT_TEST_MESSAGE = 'This is a test message from Chime. If you can read it, this destination works.';
const WEBHOOK_TEST_MESSAGE = 'This is a test message from Chime. If you can read it, your webhook works.';
/** A test send waits at most this long (the sender's own timeouts are usually shorter). */
const TEST_TIMEOUT_MS = 15_000;

const notConfigured = (type: string) => `This server is not set up to deliver ${type} destinations`;

export async function testDestination(sender: DestinationSender | undefined, destination: TestableDestination, context: TestContext): Promise<TestOutcome> {
  if (!sender) return { ok: false, code: SEND_CODES.DESTINATION_NOT_CONFIGURED, error: notConfigured(destination.type) };
  const now = new Date().toISOString();
  const message = context.message ?? DEFAULT_TEST_MESSAGE;
  const ctx: SendContext = {
    deliveryId: 'test',
    idempotencyKey: newMessageId(),
    attempt: 1,
    reminder: { id: 'test', message, recurrence_type: 'ONCE', timezone: context.timezone, remind_at_utc: now },
    account: { id: context.accountId, timezone: context.timezone, locale: context.locale, username: context.username },
    destination: { id: destination.id ?? 'test', type: destination.type, metadata: destination.metadata, secret: destination.secret },
    occurrenceUtc: now,
    firedAt: now,
    late: false,
    test: true,
    signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
  };
  try {
    const result = await sender.send(ctx);
    const status = result.httpStatus !== undefined ? { http_status: result.httpStatus } : {};
    if (result.ok) return { ok: true, ...status };
    return { ok: false, ...status, error: result.error, code: result.code };
  } catch (err) {
    return { ok: false, code: SEND_CODES.SEND_CRASHED, error: `Unexpected error: ${(err as Error)?.message ?? String(err)}` };
  }
}

/** A webhook that is not saved yet, as the destination test sees it. */
export function webhookTest(target: WebhookTestTarget): [TestableDestination, TestContext] {
  return [
    {
      type: 'webhook',
      metadata: {
        url: target.url,
        platform: target.platform,
        ...(target.username ? { username: target.username } : {}),
        ...Object.fromEntries(Object.entries(target.shape ?? {}).filter(([, v]) => v !== undefined)),
      },
      secret: target.secret ?? null,
    },
    { accountId: 'test', username: '', timezone: 'UTC', locale: null, message: WEBHOOK_TEST_MESSAGE },
  ];
}
