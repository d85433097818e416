import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/common.ts';
import { DestinationTypeOut } from '../../schemas/destination-type.ts';

const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('retrying'), Type.Literal('delivered'), Type.Literal('failed')]);

export const AttemptOut = Type.Object({
  attempt: Type.Integer(),
  /** When the attempt started. */
  at: Type.String(),
  outcome: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  http_status: Nullable(Type.Integer()),
  /** Machine code of a failed attempt (WEBHOOK_HTTP_5XX, DISCORD_CANNOT_DM...), translated by the dashboard. */
  code: Nullable(Type.String()),
  /** English detail of a failed attempt. */
  error: Nullable(Type.String()),
  duration_ms: Nullable(Type.Integer()),
});

export const DeliveryOut = Type.Object({
  id: Type.String(),
  occurrence_utc: Type.String(),
  destination_id: Type.String(),
  destination_type: DestinationTypeOut,
  destination_label: Type.String(),
  status: DeliveryStatus,
  late: Type.Boolean(),
  /** An alert this many minutes before the occurrence (docs/time.md "Alerts before"); null for the occurrence itself. */
  alert_minutes: Nullable(Type.Integer()),
  delivered_at: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String()),
  attempts: Type.Array(AttemptOut),
});

export const DeliveryPage = Type.Object({
  deliveries: Type.Array(DeliveryOut),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_cursor: Nullable(Type.String()),
});

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ProblemParams = Type.Object({ deliveryId: Type.String({ minLength: 1, maxLength: 64 }) });

/** One failed (or retrying) delivery of "Delivery problems", however many attempts it took. */
export const DeliveryProblemOut = Type.Object({
  /** The delivery's id (same as delivery_id). */
  id: Type.String(),
  delivery_id: Type.String(),
  reminder_id: Type.String(),
  reminder_message: Type.String(),
  destination_id: Type.String(),
  destination_type: DestinationTypeOut,
  destination_label: Type.String(),
  occurrence_utc: Type.String(),
  status: Type.Union([Type.Literal('failed'), Type.Literal('retrying')]),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(Type.String()),
  http_status: Nullable(Type.Integer()),
  /** Machine code of the last failure, translated by the dashboard and the bot. */
  code: Nullable(Type.String()),
  error: Nullable(Type.String()),
  updated_at: Type.String(),
});

export const DestinationCheckBody = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 40 }),
    metadata: Type.Record(Type.String({ maxLength: 40 }), Type.Unknown(), { maxProperties: 20 }),
    /** Editing a saved destination: its reminder and its id. A credential left out is then the stored one. */
    reminder_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const DestinationCheckOut = Type.Object({
  ok: Type.Boolean(),
  code: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  /** Names the message quotes (channel, role, guild), for translations. */
  params: Type.Optional(Type.Record(Type.String(), Type.String())),
});

export const DestinationParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  destinationId: Type.String({ minLength: 1, maxLength: 64 }),
});
