/** The bodies and answers of export and import (docs/time.md "Calendar feed, export and import"); the dashboard derives its types from them. */
import { Type } from '@sinclair/typebox';
import { MAX_IMPORT_BYTES } from '../../reminders/transfer/formats.ts';
import { Nullable } from '../../schemas/common.ts';

export const Format = Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('ics')]);

export const ExportQuery = Type.Object({ format: Type.Optional(Format) });

export const ImportBody = Type.Object({
  format: Format,
  /** The file's text (at most 1 MiB). */
  content: Type.String({ maxLength: MAX_IMPORT_BYTES }),
  /** Check and preview only; nothing is created. */
  dry_run: Type.Optional(Type.Boolean()),
  mode: Type.Optional(Type.Union([Type.Literal('all_or_nothing'), Type.Literal('valid_only')])),
});

export const ImportOut = Type.Object({
  valid: Type.Integer(),
  created: Type.Integer(),
  errors: Type.Array(Type.Object({ row: Type.Integer(), code: Type.String(), error: Type.String() })),
  preview: Type.Array(
    Type.Object({
      row: Type.Integer(),
      message: Type.String(),
      date: Type.String(),
      time: Type.String(),
      timezone: Type.String(),
      recurrence: Type.String(),
      rrule: Nullable(Type.String()),
      /** The repetition in words, in the request's Accept-Language (en, fr or es). */
      recurrence_text: Type.String(),
      exceptions: Type.Array(Type.String()),
      paused: Type.Boolean(),
      destinations: Type.Array(Type.Object({ type: Type.String(), metadata: Type.Record(Type.String(), Type.Unknown()) })),
      alerts: Type.Optional(Type.Array(Type.Object({ before_minutes: Type.Integer() }))),
      next_fire_utc: Nullable(Type.String()),
    }),
  ),
  /** The signing secrets of the webhooks the import created (a file carries none): shown once. */
  secrets: Type.Array(
    Type.Object({ reminder_id: Type.String(), destination_id: Type.String(), message: Type.String(), url: Type.String(), secret: Type.String() }),
  ),
});
