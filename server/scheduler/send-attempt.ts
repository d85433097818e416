import type { OutboxRow } from '../repositories/outbox.ts';
import type { DestinationInfo } from './destination-info.ts';
import { type DestinationSender, SEND_CODES, type SendContext, type SendResult } from './types.ts';

/**
 * One attempt at one delivery: refused at once when its destination is disabled (in the row, or
 * found gone earlier in this burst) or its type has no sender on this server; otherwise the
 * sender's result, a thrown error counting as a retryable crash.
 */
export async function attemptDelivery(input: {
  row: OutboxRow;
  info: DestinationInfo;
  sender: DestinationSender | undefined;
  attempt: number;
  startedMs: number;
  destinationDisabled: boolean;
  signal: AbortSignal;
}): Promise<SendResult> {
  const { row, info, sender, attempt, startedMs, signal } = input;
  if (row.disabled_at || input.destinationDisabled) {
    return {
      ok: false,
      retryable: false,
      code: SEND_CODES.DESTINATION_DISABLED,
      error: `Destination is disabled${row.disabled_reason ? `: ${row.disabled_reason}` : ''}`,
    };
  }
  if (!sender) {
    return {
      ok: false,
      retryable: false,
      code: SEND_CODES.DESTINATION_NOT_CONFIGURED,
      error: `This server is not set up to deliver ${row.destination_type} destinations`,
    };
  }
  const ctx: SendContext = {
    deliveryId: row.id,
    idempotencyKey: row.idempotency_key,
    attempt,
    reminder: {
      id: row.reminder_id,
      message: row.message,
      recurrence_type: row.recurrence_type,
      timezone: row.reminder_timezone,
      remind_at_utc: row.remind_at_utc,
    },
    account: { id: row.account_id, timezone: row.account_timezone, locale: row.locale, username: row.username },
    destination: { id: row.destination_id, type: row.destination_type, metadata: info.metadata, secret: row.secret },
    occurrenceUtc: row.occurrence_utc,
    firedAt: new Date(startedMs).toISOString(),
    late: row.late === 1,
    ...(row.alert_minutes > 0 ? { alert: { beforeMinutes: row.alert_minutes } } : {}),
    signal,
  };
  try {
    return await sender.send(ctx);
  } catch (err) {
    return { ok: false, retryable: true, code: SEND_CODES.SEND_CRASHED, error: `Unexpected error: ${(err as Error)?.message ?? String(err)}` };
  }
}
