import { type TSchema, Type } from '@sinclair/typebox';

export const ErrorResponse = Type.Object({ error: Type.String(), code: Type.String() }, { additionalProperties: true });

/** Every route documents its 4xx answers with the same shape. */
export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  422: ErrorResponse,
  429: ErrorResponse,
  503: ErrorResponse,
  507: ErrorResponse,
} as const;

export const Ok = Type.Object({ ok: Type.Boolean() });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * The optional `Idempotency-Key` of a request that creates (server/reminders/idempotency.ts): any
 * visible ASCII, up to 255 characters, like the IETF draft and Stripe's.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' })),
  // Validation removes every header a route's schema does not name (app.ts: removeAdditional), and
  // these answers carry text in the caller's language (recurrence_text).
  'accept-language': Type.Optional(Type.String()),
});

/** Answered with a replay: the request's Idempotency-Key had already created what it asks for. */
export const REPLAYED_HEADER = 'idempotent-replayed';
