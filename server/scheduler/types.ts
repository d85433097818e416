/**
 * The sender interface: all the scheduler knows about destination types. Each destination module
 * (server/destinations/<type>/) provides a sender; the scheduler plugin registers them.
 */
import type { AccountsTable, DestinationType, StoredRecurrence } from '../db/database.ts';
import type { Selectable } from 'kysely';

/** Everything a sender needs to deliver one occurrence to one destination. */
export interface SendContext {
  deliveryId: string;
  /** Same across retries and restarts: webhook-id header, Discord nonce. */
  idempotencyKey: string;
  attempt: number;
  reminder: {
    id: string;
    message: string;
    recurrence_type: StoredRecurrence;
    timezone: string;
    remind_at_utc: string;
  };
  account: Pick<Selectable<AccountsTable>, 'id' | 'timezone' | 'locale' | 'username'>;
  destination: { id: string; type: DestinationType; metadata: Record<string, unknown>; secret: string | null };
  /** The scheduled occurrence (ISO UTC). */
  occurrenceUtc: string;
  /** When this attempt started (ISO UTC). */
  firedAt: string;
  late: boolean;
  /**
   * An alert before the occurrence ("in 15 minutes: ...", docs/time.md "Alerts before"), not the
   * occurrence itself: senders say how long until `occurrenceUtc`, and offer no Snooze/Done (those
   * act on the occurrence). Absent for the occurrence's own delivery.
   */
  alert?: { beforeMinutes: number };
  /**
   * A test send ("does this destination work?"): no reminder stands behind it, so no buttons to
   * act on it, and webhooks receive a `webhook.test` payload.
   */
  test?: boolean;
  signal: AbortSignal;
}

/**
 * Failure codes the scheduler itself gives. Senders add their own, prefixed with their family
 * (WEBHOOK_HTTP_5XX, DISCORD_CANNOT_DM...): stable SCREAMING_SNAKE strings, stored in
 * delivery_attempts.error_code and deliveries.last_error_code, translated by the dashboard.
 */
export const SEND_CODES = {
  /** The destination was disabled (gone for good, or by its owner) before this attempt. */
  DESTINATION_DISABLED: 'DESTINATION_DISABLED',
  /** This server has no sender for the type (Discord without settings). */
  DESTINATION_NOT_CONFIGURED: 'DESTINATION_NOT_CONFIGURED',
  /** The sender threw instead of returning a result. */
  SEND_CRASHED: 'SEND_CRASHED',
} as const;

export type SendFailure = {
  ok: false;
  /** Stable machine code (see SEND_CODES); what the dashboard translates. */
  code: string;
  /** Readable detail shown to the owner in GET /api/reminders/errors. */
  error: string;
  /** Network errors, 5xx, 408, 429: try again later. */
  retryable: boolean;
  httpStatus?: number;
  retryAfterMs?: number;
  /** The target is gone for good (410, deleted webhook, cannot DM): stop using it. */
  disableDestination?: boolean;
};

/**
 * Delivered. `warning`: something after the delivery did not happen (an announcement not published):
 * the delivery is not retried (the message is there), and the attempt is logged with the code.
 */
export type SendResult = { ok: true; httpStatus?: number; warning?: { code: string; error: string } } | SendFailure;

/**
 * Run-time tuning handed to every sender (app.scheduler.setOptions): each sender reads the keys it
 * knows. Sender modules declare theirs by merging into this interface.
 */
export interface SenderTuning {
  /** Sends in flight per concurrency key: a sender keeping connection pools may size them by it. */
  perHostConcurrency?: number;
}

export interface DestinationSender {
  /** Key for per-key concurrency limits (webhook host, "discord"). */
  concurrencyKey(destination: SendContext['destination']): string;
  /** Label of the `platform` metric (chime_deliveries_total); the destination type by default. */
  metricsLabel?(destination: SendContext['destination']): string;
  send(ctx: SendContext): Promise<SendResult>;
  /** New run-time tuning (only the keys that changed). */
  tune?(tuning: SenderTuning): void;
  /** Releases connections at shutdown. */
  close?(): Promise<void>;
}

/** What a test send answers (POST /api/webhooks/test, the saved-destination test). */
export interface TestOutcome {
  ok: boolean;
  http_status?: number;
  error?: string;
  code?: string;
}

