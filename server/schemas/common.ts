import { type TSchema, Type } from '@sinclair/typebox';

export const ErrorResponse = Type.Object({ error: Type.String(), code: Type.String() }, { additionalProperties: true });

/** Every route documents its 4xx answers with the same shape. */
export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
  503: ErrorResponse,
  507: ErrorResponse,
} as const;

export const Ok = Type.Object({ ok: Type.Boolean() });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
