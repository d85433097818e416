import { Type } from '@sinclair/typebox';
import { RECURRENCES } from '../../reminders/input.ts';
import { Nullable } from '../../schemas/common.ts';
import { DestinationMetadataBody } from '../../schemas/destination-metadata.ts';
import { OwnerDestinationTypeOut } from '../../schemas/destination-type.ts';

export const DestinationBody = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.String({ maxLength: 32 }),
  metadata: Type.Optional(DestinationMetadataBody),
});

export const ReminderBody = Type.Object({
  date: Type.String({ maxLength: 32 }),
  time: Type.String({ maxLength: 16 }),
  message: Type.String({ maxLength: 20_000 }),
  /** One of the presets, or CUSTOM with `rrule`. */
  recurrence: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  /** CUSTOM only: an RFC 5545 RRULE value without the `RRULE:` prefix (DTSTART is date + time in the zone). */
  rrule: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  destinations: Type.Optional(Type.Array(DestinationBody, { maxItems: 50 })),
  /** The zone of date/time. Create: defaults to the account's zone; update: to the reminder's own zone. */
  timezone: Type.Optional(Type.String({ maxLength: 100 })),
  /**
   * Up to 3 alerts before each occurrence, each 1 to 40320 minutes (28 days) before, no two the same.
   * Update: absent keeps the reminder's alerts, `[]` removes them. The service checks the values
   * (ALERTS_INVALID, ALERT_TOO_MANY, ALERT_AFTER_EVENT), so they are loose here.
   */
  alerts: Type.Optional(Nullable(Type.Array(Type.Object({ before_minutes: Type.Number() }), { maxItems: 20 }))),
});

const DestinationOut = Type.Object({
  id: Type.String(),
  type: OwnerDestinationTypeOut,
  metadata: Type.Object({
    guild_id: Type.Optional(Type.String()),
    channel_id: Type.Optional(Type.String()),
    mention_role_id: Type.Optional(Type.String()),
    /** Display names of a channel destination, as they were when it was saved. */
    guild_name: Type.Optional(Type.String()),
    channel_name: Type.Optional(Type.String()),
    mention_role_name: Type.Optional(Type.String()),
    /** Discord's channel type when it was saved (0 text, 2 voice, 5 announcement, 13 stage, 10-12 threads, 15 forum, 16 media), for display. */
    channel_type: Type.Optional(Type.Number()),
    /** A thread's channel (a forum post's forum) when it was saved, for display. */
    parent_name: Type.Optional(Type.String()),
    /** Announcement channels: each delivered message is published to the following servers. */
    publish: Type.Optional(Type.Boolean()),
    /** Forum and media channels: the tags each new post carries. */
    forum_tag_ids: Type.Optional(Type.Array(Type.String())),
    /** Channel destinations: a "Remind me too" button under each delivery. */
    remind_me_too: Type.Optional(Type.Boolean()),
    url: Type.Optional(Type.String()),
    platform: Type.Optional(Type.String()),
    username: Type.Optional(Type.String()),
    body_template: Type.Optional(Type.String()),
    body_format: Type.Optional(Type.String()),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    address: Type.Optional(Type.String()),
    /** ntfy, Gotify, Pushover (docs/notifications.md); credentials only as `token_hint`. */
    server: Type.Optional(Type.String()),
    topic: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Array(Type.String())),
    priority: Type.Optional(Type.Number()),
    token_hint: Type.Optional(Type.String()),
    user_key: Type.Optional(Type.String()),
    device: Type.Optional(Type.String()),
    /** Matrix: the room as typed (id or alias) and the room id the homeserver resolved it to. */
    room: Type.Optional(Type.String()),
    room_id: Type.Optional(Type.String()),
    /** Telegram: the connected chat's id and what Telegram calls it (title or @username). */
    chat_id: Type.Optional(Type.String()),
    label: Type.Optional(Type.String()),
    /** Browser push: the browser's subscription, and the browser's and system's names ("Firefox", "Android"). */
    endpoint: Type.Optional(Type.String()),
    keys: Type.Optional(Type.Object({ p256dh: Type.String(), auth: Type.String() })),
    browser: Type.Optional(Type.String()),
    os: Type.Optional(Type.String()),
  }),
  disabled_reason: Nullable(Type.String()),
  /** Why it was disabled, for translation: DESTINATION_FAILING (5 failed deliveries in a row), WEBHOOK_GONE... */
  disabled_code: Nullable(Type.String()),
  /** Only in the answer that created the destination (and after a rotation). */
  secret: Type.Optional(Type.String()),
  /** Present (true) while a manager of its Discord server has paused it (docs/servers.md). */
  server_paused: Type.Optional(Type.Boolean()),
});

export const ReminderOut = Type.Object({
  id: Type.String(),
  account_id: Type.String(),
  /** The instant of the chosen date and time (derived). */
  remind_at_utc: Type.String(),
  /** When the series first fires: differs from date/time for WORKDAYS/WEEKEND anchored outside their days. */
  first_occurrence_utc: Nullable(Type.String()),
  snoozed_at_utc: Nullable(Type.String()),
  next_fire_utc: Nullable(Type.String()),
  message: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  recurrence_type: Type.Union([...RECURRENCES.map((r) => Type.Literal(r)), Type.Literal('CUSTOM')]),
  /** The RRULE value of a CUSTOM reminder (canonical form); null for presets. */
  rrule: Nullable(Type.String()),
  /** Skipped occurrences (ISO instants, ascending): those ahead, and those of the last 400 days. */
  exceptions: Type.Array(Type.String()),
  /** The repetition in one sentence, in the caller's language (Accept-Language). */
  recurrence_text: Type.String(),
  is_paused: Type.Boolean(),
  timezone: Type.String(),
  /** The local date and wall-clock time the user chose, in `timezone` (HH:MM, or HH:MM:SS). */
  date: Type.String(),
  time: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('completed')]),
  last_fired_at: Nullable(Type.String()),
  /** Alerts before each occurrence, largest first. */
  alerts: Type.Array(Type.Object({ before_minutes: Type.Integer() })),
  /** The next alert to be sent (ISO instant), null when none is ahead of the next occurrence. */
  next_alert_utc: Nullable(Type.String()),
  destinations: Type.Array(DestinationOut),
  /** How many people pressed "Remind me too" and receive its occurrences by DM. */
  subscriber_count: Type.Integer({ minimum: 0 }),
  /** Present when a manager of a Discord server changed this reminder: what they did (docs/servers.md). */
  server_notice: Type.Optional(Type.String()),
});

export const Occurrences = Type.Object({ occurrences: Type.Array(Type.String()) });

/** The wizard's preview: the next occurrences and the repetition in words. */
export const Preview = Type.Object({ occurrences: Type.Array(Type.String()), recurrence_text: Type.String() });

export const SkipBody = Type.Object({ occurrence: Type.String({ maxLength: 40 }) });

export const SkipParams = Type.Object({ id: Type.String({ maxLength: 64 }), occurrence: Type.String({ maxLength: 40 }) });

export const SnoozeBody = Type.Object({
  minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 525_600 })),
  until: Type.Optional(Type.String({ maxLength: 40 })),
});

export const ScheduleTextQuery = Type.Object({ text: Type.String({ minLength: 1, maxLength: 200 }) });

/** A schedule read from words, in the account's zone (server/reminders/schedule-text/read-schedule-text.ts). */
export const ScheduleFromText = Type.Object({
  date: Type.String(),
  time: Type.String(),
  recurrence: Type.Union([
    Type.Literal('ONCE'),
    Type.Literal('HOURLY'),
    Type.Literal('DAILY'),
    Type.Literal('WEEKLY'),
    Type.Literal('WORKDAYS'),
    Type.Literal('WEEKEND'),
    Type.Literal('MONTHLY'),
    Type.Literal('YEARLY'),
    Type.Literal('CUSTOM'),
  ]),
  rrule: Nullable(Type.String()),
  first_occurrence_utc: Type.String(),
  timezone: Type.String(),
  /** The repetition in words, in the caller's language. */
  recurrence_text: Type.String(),
});

export const PreviewQuery = Type.Object({
  date: Type.String({ maxLength: 32 }),
  time: Type.String({ maxLength: 16 }),
  recurrence: Type.Optional(Type.String({ maxLength: 32 })),
  rrule: Type.Optional(Type.String({ maxLength: 1000 })),
  timezone: Type.Optional(Type.String({ maxLength: 100 })),
  count: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
});

export const OccurrencesQuery = Type.Object({
  count: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
});
