import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Instants are stored as ISO-8601 UTC text (`2026-11-22T09:00:00.000Z`): it sorts correctly as
 * text, reads well in a SQL shell and maps onto PostgreSQL's timestamptz later. Booleans are
 * 0/1 integers for the same portability reason.
 */
type Instant = string;
type Bool = number;

export interface AccountsTable {
  id: string;
  email: string | null;
  /** Lower-cased email: uniqueness is case-insensitive without a SQLite-only COLLATE. */
  email_normalized: string | null;
  username: string;
  timezone: string;
  locale: string | null;
  /**
   * Moves whenever one of the account's reminders or their destinations changes, by any connection
   * (SQLite triggers; migration 2026-11-23-012). Always 0 on PostgreSQL. What the list cache checks.
   */
  list_version: ColumnType<number, number | undefined, number>;
  /**
   * When an administrator disabled the account (docs/operations.md "Administration"); null while usable. A
   * disabled account cannot sign in and its reminders do not fire; enabling it restores both.
   */
  disabled_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  created_at: Instant;
  updated_at: Instant;
}

export type IdentityProvider = 'app' | 'discord';

export interface IdentitiesTable {
  id: string;
  account_id: string;
  provider: IdentityProvider;
  /** The email for the app identity, the Discord user id for discord. */
  external_id: string;
  username: string | null;
  password_hash: string | null;
  access_token: string | null;
  refresh_token: string | null;
  token_expires_at: Instant | null;
  scope: string | null;
  /** Cached DM channel id for delivery (discord only). */
  dm_channel_id: string | null;
  created_at: Instant;
  updated_at: Instant;
}

export interface SessionsTable {
  id: string;
  account_id: string;
  /** SHA-256 of the bearer token, hex; the token itself is never stored. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
  last_used_at: Instant | null;
  user_agent: string | null;
  /** Where it was last seen: an IPv4 address or an IPv6 /64 (migration 2026-11-27-011). */
  network: string | null;
}

export type RecurrenceType = 'ONCE' | 'YEARLY' | 'MONTHLY' | 'WEEKLY' | 'DAILY' | 'HOURLY' | 'WORKDAYS' | 'WEEKEND';
/** What reminders.recurrence_type holds: a preset, or CUSTOM with the rule in `rrule`. */
export type StoredRecurrence = RecurrenceType | 'CUSTOM';

export interface RemindersTable {
  id: string;
  account_id: string;
  message: string;
  /**
   * The anchor as the user chose it: local date `YYYY-MM-DD` and wall-clock time `HH:MM` (or
   * `HH:MM:SS`) in `timezone`. Every occurrence is computed from these; never read them back
   * from an instant.
   */
  local_date: string;
  local_time: string;
  /** Derived: the instant of the anchor's wall clock (gap -> gap end, overlap -> earlier). */
  remind_at_utc: Instant;
  /** IANA zone the wall-clock time belongs to (as chosen; legacy aliases under their modern name). */
  timezone: string;
  recurrence_type: StoredRecurrence;
  /** The RFC 5545 RRULE value (no `RRULE:` prefix) of a CUSTOM reminder, in canonical form; null for presets. */
  rrule: string | null;
  /** JSON array of the ISO instants of skipped occurrences (future ones; `[]` when none). */
  exceptions: ColumnType<string, string | undefined, string>;
  is_paused: Bool;
  snoozed_at_utc: Instant | null;
  /** The occurrence the scheduler fires next; null when nothing is left (finished ONCE). */
  next_fire_utc: Instant | null;
  /** The scheduled occurrence `next_fire_utc` stands for (differs from it while snoozed). */
  next_occurrence_utc: Instant | null;
  last_fired_at: Instant | null;
  completed_at: Instant | null;
  created_at: Instant;
  updated_at: Instant;
  /** Why a server's manager changed this reminder, for its creator (migration 2026-11-27-030). */
  server_notice: ColumnType<string | null, string | null | undefined, string | null>;
  /** The user's alerts before each occurrence: JSON array of distinct minute counts, `[]` when none (migration 2026-11-29-400). */
  alerts: ColumnType<string, string | undefined, string>;
  /**
   * Derived: the next alert instant of next_occurrence_utc still to send (null: none); the alert is
   * next_occurrence_utc minus it. Set through scheduler/alerts.ts by every writer of next_occurrence_utc.
   */
  next_alert_utc: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

export type DestinationType = 'discord_dm' | 'discord_channel' | 'webhook' | 'email' | 'ntfy' | 'gotify' | 'pushover' | 'matrix' | 'telegram' | 'web_push' | 'discord_subscriber';
/** What an owner chooses: every type but a subscriber's ("Remind me too"), which only counts. */
export type OwnerDestinationType = Exclude<DestinationType, 'discord_subscriber'>;

export interface DestinationsTable {
  id: string;
  reminder_id: string;
  type: DestinationType;
  /** JSON text of the type's metadata (its module in server/destinations/ says what it holds). */
  metadata: string;
  /** Standard Webhooks signing secret (whsec_...), webhook destinations only. */
  secret: string | null;
  position: number;
  disabled_at: Instant | null;
  disabled_reason: string | null;
  /** Machine code of disabled_reason (DESTINATION_FAILING, WEBHOOK_GONE...); null for older rows. */
  disabled_code: string | null;
  created_at: Instant;
  /** The Discord server of a discord_channel destination, null for other types (migration 2026-11-27-030). */
  guild_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A manager of that server paused this destination (docs/servers.md); null otherwise. */
  server_paused_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

/** One row per (reminder, occurrence, destination): the outbox the scheduler works from. */
export interface DeliveriesTable {
  id: string;
  reminder_id: string;
  destination_id: string;
  account_id: string;
  occurrence_utc: Instant;
  /** Sent as webhook-id / idempotency key; stays the same across retries and restarts. */
  idempotency_key: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Instant | null;
  late: Bool;
  last_error: string | null;
  /** Stable machine code of the latest failure (WEBHOOK_HTTP_5XX, DISCORD_CANNOT_DM...); null when none. */
  last_error_code: string | null;
  created_at: Instant;
  updated_at: Instant;
  delivered_at: Instant | null;
  /** The owner hid this failed delivery from "Delivery problems" (migration 2026-11-23-006). */
  dismissed_at: Instant | null;
  /** The instance sending this delivery now, until lease_expires_at (migration 2026-11-23-011). */
  lease_owner: string | null;
  lease_expires_at: Instant | null;
  /** The sender's concurrency key (webhook host, "discord") when it was written: full keys wait in the table (migration 2026-11-27-001). */
  concurrency_key: Generated<string | null>;
  /** 0: the occurrence itself; N: the alert N minutes before it (migration 2026-11-29-400). Part of the unique key. */
  alert_minutes: ColumnType<number, number | undefined, number>;
}

export type AttemptOutcome = 'delivered' | 'failed' | 'retrying';

/** The delivery log: one row per attempt. */
export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  reminder_id: string;
  destination_id: string;
  account_id: string;
  occurrence_utc: Instant;
  attempt: number;
  outcome: AttemptOutcome;
  error: string | null;
  http_status: number | null;
  /** No longer written (see error_code); kept for attempts logged before it. */
  discord_code: number | null;
  /** Stable machine code of a failed attempt (WEBHOOK_HTTP_5XX, DISCORD_CANNOT_DM...); null when delivered, but for a warning (DISCORD_CROSSPOST_RATE_LIMITED). */
  error_code: string | null;
  duration_ms: number | null;
  created_at: Instant;
}

/** An account's calendar feed address (migration 2026-11-23-004). */
export interface CalendarFeedsTable {
  account_id: string;
  /** The secret of the address, kept so the dashboard can show it again (docs/time.md "Calendar feed"). */
  token: string;
  /** SHA-256 (hex) of token: what the public feed route looks up. */
  token_hash: string;
  created_at: Instant;
}

/** A personal access token (migration 2026-11-27-004, docs/api.md): only the hash of its token is stored. */
export interface AccessTokensTable {
  id: string;
  account_id: string;
  name: string;
  /** Space-separated scopes: `reminders:read`, `reminders:write`. */
  scopes: string;
  /** SHA-256 (hex) of the token: what a request's bearer is looked up by. */
  token_hash: string;
  created_at: Instant;
  /** Null: never expires. */
  expires_at: Instant | null;
  /** Written at most once a minute per token. */
  last_used_at: Instant | null;
}

/** A browser known for an account (migration 2026-11-27-010, docs/security.md): only the hash of its cookie's token is stored. */
export interface KnownDevicesTable {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: Instant;
  last_used_at: Instant;
}

/** Two-factor codes of an account (migration 2026-11-27-012, docs/security.md). */
export interface TwoFactorTable {
  account_id: string;
  /** The TOTP secret, base32. */
  secret: string;
  created_at: Instant;
  /** Null while the setup waits for its first code. */
  enabled_at: Instant | null;
  /** The 30-second step of the last code accepted (no code is taken twice). */
  last_step: number | null;
}

/** A single-use recovery code (migration 2026-11-27-012): only its SHA-256 is stored. */
export interface RecoveryCodesTable {
  id: string;
  account_id: string;
  code_hash: string;
  created_at: Instant;
  used_at: Instant | null;
}

/** A passkey (migration 2026-11-28-300, docs/security.md "Passkeys"): a WebAuthn credential of an account. */
export interface PasskeysTable {
  id: string;
  account_id: string;
  /** The credential's id, base64url; unique. */
  credential_id: string;
  /** Its COSE public key, base64url. */
  public_key: string;
  /** The signature counter last seen. */
  counter: number;
  /** The transports the browser reported, a JSON array; null when none. */
  transports: string | null;
  device_type: 'singleDevice' | 'multiDevice';
  /** 1 when the authenticator says the passkey is backed up (synced), else 0. */
  backed_up: number;
  name: string;
  created_at: Instant;
  last_used_at: Instant | null;
}

/**
 * Someone who pressed "Remind me too" under a channel reminder (migration 2026-11-28-320): the
 * reminder's coming occurrences reach them by DM through their `discord_subscriber` destination.
 */
export interface ReminderSubscriptionsTable {
  id: string;
  reminder_id: string;
  /** The subscriber's account (made on first press, as /remind does). */
  account_id: string;
  /** The subscriber's delivery target: a `discord_subscriber` row of destinations on the reminder. */
  destination_id: string;
  created_at: Instant;
}

/** A Telegram chat an account connected with a /start code (migration 2026-11-28-310, docs/notifications.md "Telegram"). */
export interface TelegramChatsTable {
  id: string;
  account_id: string;
  /** Telegram's chat id as text (64-bit, negative for groups). */
  chat_id: string;
  chat_type: string;
  /** @username or first name of a private chat, a group's title. */
  label: string;
  created_at: Instant;
  updated_at: Instant;
}

/** A password-reset link (migration 2026-11-23-005): only the hash of its token is stored. */
export interface PasswordResetTokensTable {
  token_hash: string;
  account_id: string;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
}

/** An address an account sends reminders to by email, and whether its owner confirmed it. */
export interface EmailAddressesTable {
  account_id: string;
  address_normalized: string;
  address: string;
  confirmed_at: Instant | null;
  /** SHA-256 (hex) of the latest confirmation link's token; null once confirmed. */
  token_hash: string | null;
  token_expires_at: Instant | null;
  confirmation_sent_at: Instant | null;
  created_at: Instant;
}

/** One mail sent on an account's behalf (the hourly cap counts them). */
export interface EmailSendsTable {
  id: Generated<number>;
  account_id: string;
  kind: 'reminder' | 'confirmation' | 'password_reset' | 'security_notice';
  created_at: Instant;
}

/** A single-use record keyed by the hash of a random key a browser holds (OAuth state, setup ticket). */
export interface ShortLivedRecordsTable {
  kind: string;
  key_hash: string;
  /** JSON of the record. */
  value: string;
  expires_at: Instant;
}

/** A fixed-window request counter shared by every instance (migration 2026-11-23-009). */
export interface RateWindowsTable {
  key: string;
  count: number;
  reset_at: Instant;
}

/** One failed (or running) password attempt under one counter key of the login throttle. */
export interface AttemptFailuresTable {
  attempt_id: string;
  key: string;
  account: string;
  net: string;
  at: Instant;
}

/** A job only one instance may run at a time, and who runs it until when (migration 2026-11-23-010). */
export interface LeasesTable {
  name: string;
  owner: string;
  expires_at: Instant;
}

/** A secret the server made for itself, shared by every instance (migration 2026-11-27-020): the action-link key. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Instant;
}

/** What a create answered, under the client's Idempotency-Key (migration 2026-11-24-001). */
export interface IdempotencyKeysTable {
  account_id: string;
  key_hash: string;
  operation: string;
  fingerprint: string;
  /** JSON of the first request's result. */
  result: string;
  created_at: Instant;
}

export type WhoCanCreate = 'everyone' | 'role' | 'managers';
export type RoleMentions = 'everyone' | 'managers' | 'nobody';
export type FormerMembers = 'keep' | 'pause';

/** A Discord server's rules (docs/servers.md); a server without a row has the defaults. */
export interface ServerSettingsTable {
  guild_id: string;
  manager_role_id: string | null;
  default_timezone: string | null;
  who_can_create: WhoCanCreate;
  creator_role_id: string | null;
  role_mentions: RoleMentions;
  everyone_mention: Bool;
  /** JSON text: an array of channel ids, or null for every channel. */
  allowed_channel_ids: string | null;
  max_reminders: number | null;
  former_members: FormerMembers;
  /** Channel reminders may offer "Remind me too" here (migration 2026-11-28-320). */
  allow_remind_me_too: ColumnType<Bool, Bool | undefined, Bool>;
  updated_at: Instant;
}

export type ServerAuditAction = 'create' | 'edit' | 'pause' | 'resume' | 'delete' | 'take_over' | 'settings';

/** One change to a server's reminders or settings (migration 2026-11-27-031), kept 90 days. */
export interface ServerAuditTable {
  id: string;
  guild_id: string;
  at: Instant;
  actor_account_id: string | null;
  actor_discord_user_id: string | null;
  actor_username: string | null;
  action: ServerAuditAction;
  reminder_id: string | null;
  summary: string;
  /** JSON `{ kind, params }` (server/servers/audit.ts AuditDetail); null on entries older than the column. */
  detail: string | null;
}

export interface Database {
  accounts: AccountsTable;
  identities: IdentitiesTable;
  sessions: SessionsTable;
  reminders: RemindersTable;
  destinations: DestinationsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  calendar_feeds: CalendarFeedsTable;
  password_reset_tokens: PasswordResetTokensTable;
  email_addresses: EmailAddressesTable;
  email_sends: EmailSendsTable;
  short_lived_records: ShortLivedRecordsTable;
  rate_windows: RateWindowsTable;
  attempt_failures: AttemptFailuresTable;
  leases: LeasesTable;
  idempotency_keys: IdempotencyKeysTable;
  access_tokens: AccessTokensTable;
  server_settings: ServerSettingsTable;
  server_audit: ServerAuditTable;
  known_devices: KnownDevicesTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  server_secrets: ServerSecretsTable;
  telegram_chats: TelegramChatsTable;
  reminder_subscriptions: ReminderSubscriptionsTable;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type Identity = Selectable<IdentitiesTable>;
export type Session = Selectable<SessionsTable>;
export type Reminder = Selectable<RemindersTable>;
export type ReminderUpdate = Updateable<RemindersTable>;
export type Destination = Selectable<DestinationsTable>;
export type Delivery = Selectable<DeliveriesTable>;
export type DeliveryAttempt = Selectable<DeliveryAttemptsTable>;
export type CalendarFeed = Selectable<CalendarFeedsTable>;
export type AccessToken = Selectable<AccessTokensTable>;
export type ServerSettings = Selectable<ServerSettingsTable>;
export type ServerAuditEntry = Selectable<ServerAuditTable>;
export type { ColumnType };
