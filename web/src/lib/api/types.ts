/*
 * The dashboard's view of the HTTP API, derived from the server's TypeBox schemas so a field the
 * server adds, renames or drops shows up here at compile time instead of as a hand copy drifting.
 *
 * Type-only imports: `import type` is erased by the compiler, so nothing from server/ (nor TypeBox)
 * ends up in the bundle.
 *
 * Where the UI needs a narrower value than the schema's `string` (a webhook platform, an identity's
 * provider), the narrow union is intersected with the derived field type, so it still follows the
 * server: a field that disappears or changes type breaks the build here. Destination types are
 * enums in the answers' schemas (server/schemas/destination-type.ts) and need no narrowing.
 *
 * Still hand-typed (their schemas are inline, unexported consts in route files): Guild/Channel/Role,
 * PublicConfig, the login/register bodies and LoginResponse (web/src/lib/session.ts: it also
 * covers the Discord callback and setup answers).
 */
import type { Static } from '@sinclair/typebox';
import type { AccountResponse, Capabilities as CapabilitiesSchema } from '../../../../server/routes/account/index.ts';
import type { TestResult as WebhookTestResultSchema } from '../../../../server/routes/webhooks/index.ts';
import type { DeliveryOut, DeliveryPage as DeliveryPageSchema, DeliveryProblemOut, DestinationCheckOut } from '../../../../server/routes/deliveries/schemas.ts';
import type {
  DestinationBody,
  Occurrences as OccurrencesSchema,
  Preview as PreviewSchema,
  ScheduleFromText as ScheduleFromTextSchema,
  ReminderBody,
  ReminderOut,
  SnoozeBody,
} from '../../../../server/routes/reminders/schemas.ts';
import type { Format as TransferFormatSchema, ImportBody, ImportOut } from '../../../../server/routes/transfer/schemas.ts';
import type { Ok as OkSchema } from '../../../../server/schemas/common.ts';
import type { ChatList as TelegramChatListSchema, LinkCode as TelegramLinkCodeSchema } from '../../../../server/routes/telegram/index.ts';

/** Compile-time check: fails unless `Actual` is assignable to `Expected`. */
type Accepts<Expected, Actual extends Expected> = Actual;

type ReminderOutput = Static<typeof ReminderOut>;
type DestinationOutput = ReminderOutput['destinations'][number];

/** What a reminder's recurrence_type holds: a preset, or CUSTOM with its `rrule`. */
export type Repetition = ReminderOutput['recurrence_type'];

/** The 8 recurrence presets, exactly as the server's schema lists them. */
export type Recurrence = Exclude<Repetition, 'CUSTOM'>;

/** In the wizard's display order; the check below fails the build if it misses or invents one. */
export const RECURRENCES = ['ONCE', 'DAILY', 'WEEKLY', 'WORKDAYS', 'WEEKEND', 'MONTHLY', 'YEARLY', 'HOURLY'] as const satisfies readonly Recurrence[];
type _EveryRecurrence = Accepts<[never], [Exclude<Recurrence, (typeof RECURRENCES)[number]>]>;

export type DestinationType = DestinationOutput['type'];
export type WebhookPlatform = NonNullable<DestinationOutput['metadata']['platform']> & ('generic' | 'discord' | 'slack');

/**
 * `access_token` and `app_token` are only ever sent: the server answers `token_hint` instead
 * (docs/notifications.md). `secret` is a webhook's signing secret from a test send, sent with the save.
 */
export type DestinationMetadata = Omit<DestinationOutput['metadata'], 'platform'> & { platform?: WebhookPlatform; access_token?: string; app_token?: string; secret?: string; user_agent?: string };

export type Destination = Omit<DestinationOutput, 'metadata'> & { metadata: DestinationMetadata };

/** A reminder as every reminder route answers it (`status` and `first_occurrence_utc` are computed by the server). */
export type Reminder = Omit<ReminderOutput, 'destinations'> & { destinations: Destination[] };

/** What the client sends for a destination: an existing one keeps its id (and so its secret). */
export type DestinationInput = Pick<Static<typeof DestinationBody>, 'id'> & { type: DestinationType; metadata: DestinationMetadata };

/** Body of POST /api/reminders and PUT /api/reminders/:id. */
export type ReminderPayload = Omit<Static<typeof ReminderBody>, 'recurrence' | 'destinations'> & {
  recurrence: Repetition;
  destinations: DestinationInput[];
};

export type SnoozePayload = Static<typeof SnoozeBody>;

/** One failed or retrying delivery of "Delivery problems" (GET /api/reminders/errors). */
export type DeliveryProblem = Static<typeof DeliveryProblemOut>;
/** One delivery of a reminder's history (a subscriber's too), with its attempts. */
export type Delivery = Static<typeof DeliveryOut>;
export type DeliveryPage = Static<typeof DeliveryPageSchema>;

/** GET /api/account/capabilities. */
export type Capabilities = Static<typeof CapabilitiesSchema>;
/** POST /api/webhooks/test and a saved destination's test. */
export type WebhookTestResult = Static<typeof WebhookTestResultSchema>;
/** POST /api/destinations/check. */
export type DestinationCheck = Static<typeof DestinationCheckOut>;

export type Occurrences = Static<typeof OccurrencesSchema>;
export type Preview = Static<typeof PreviewSchema>;
/** GET /api/reminders/schedule-from-text: a schedule typed in words, read in the account's zone. */
export type ScheduleFromText = Static<typeof ScheduleFromTextSchema>;

type AccountOutput = Static<typeof AccountResponse>;
type IdentityOutput = AccountOutput['identities'][number];
export type Account = Omit<AccountOutput, 'identities'> & {
  identities: (Omit<IdentityOutput, 'provider'> & { provider: IdentityOutput['provider'] & ('app' | 'discord') })[];
};

export type Ok = Static<typeof OkSchema>;

// What the dashboard sends must be a body the server's schema accepts.
type _PayloadsMatchTheServer = [
  Accepts<Static<typeof ReminderBody>, ReminderPayload>,
  Accepts<Static<typeof DestinationBody>, DestinationInput>,
];

/** A file format of export and import. */
export type TransferFormat = Static<typeof TransferFormatSchema>;

/** Body of POST /api/reminders/import. */
export type ImportPayload = Static<typeof ImportBody>;

/** Answer of POST /api/reminders/import: the check, the preview of the first rows, what was created. */
export type ImportResult = Static<typeof ImportOut>;

/** A one-time code that connects a Telegram chat (POST /api/telegram/link-codes). */
export type TelegramLinkCode = Static<typeof TelegramLinkCodeSchema>;
/** The account's connected Telegram chats (GET /api/telegram/chats). */
export type TelegramChatList = Static<typeof TelegramChatListSchema>;
export type TelegramChat = TelegramChatList['chats'][number];
