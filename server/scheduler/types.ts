import type { AccountsTable, DestinationType, RecurrenceType } from '../db/database.ts';
import type { Selectable } from 'kysely';

export type WebhookPlatform = 'generic' | 'discord' | 'slack';

export type DestinationMetadata =
  | { type: 'discord_dm'; metadata: Record<string, never> }
  | { type: 'discord_channel'; metadata: { guild_id: string; channel_id: string; mention_role_id?: string } }
  | { type: 'webhook'; metadata: { url: string; platform: WebhookPlatform; username?: string } };

/** Everything a sender needs to deliver one occurrence to one destination. */
export interface SendContext {
  deliveryId: string;
  /** Same across retries and restarts: webhook-id header, Discord nonce. */
  idempotencyKey: string;
  attempt: number;
  reminder: {
    id: string;
    message: string;
    recurrence_type: RecurrenceType;
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
  signal: AbortSignal;
}

export type SendResult =
  | { ok: true; httpStatus?: number }
  | {
      ok: false;
      /** Network errors, 5xx, 408, 429: try again later. */
      retryable: boolean;
      /** Readable reason shown to the owner in GET /api/reminders/errors. */
      error: string;
      httpStatus?: number;
      discordCode?: number;
      retryAfterMs?: number;
      /** The target is gone for good (410, deleted webhook, cannot DM): stop using it. */
      disableDestination?: boolean;
    };

export interface DestinationSender {
  /** Host key for per-host concurrency limits (webhook host, "discord"). */
  concurrencyKey(destination: SendContext['destination']): string;
  send(ctx: SendContext): Promise<SendResult>;
}
