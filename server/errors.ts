/**
 * The one error type of Chime. `code` is stable and machine-readable: the dashboard and the bot
 * translate by it (locales `errors.<CODE>`); `message` is the readable English fallback that the
 * API sends as `error`.
 */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly status: number = defaultStatus(code),
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  SCHEDULE_UNREADABLE: 400,
  SCHEDULE_REPEAT_UNREADABLE: 400,
  INVALID_JSON: 400,
  INVALID_DATE: 400,
  INVALID_TIME: 400,
  INVALID_TIMEZONE: 400,
  INVALID_RECURRENCE: 400,
  RRULE_INVALID: 400,
  OCCURRENCE_INVALID: 400,
  SKIP_LIMIT: 400,
  // Alerts before a reminder (server/reminders/input.ts parseAlerts).
  ALERTS_INVALID: 400,
  ALERT_TOO_MANY: 400,
  ALERT_AFTER_EVENT: 400,
  INVALID_DESTINATION: 400,
  DESTINATION_LIMIT: 400,
  REMINDER_LIMIT: 400,
  REMINDER_IN_PAST: 400,
  IMPORT_FILE_INVALID: 400,
  IMPORT_TOO_LARGE: 400,
  MESSAGE_REQUIRED: 400,
  MESSAGE_TOO_LONG: 400,
  WEBHOOK_URL_INVALID: 400,
  WEBHOOK_TARGET_FORBIDDEN: 400,
  WEBHOOK_TEMPLATE_INVALID: 400,
  WEBHOOK_SECRET_INVALID: 400,
  WEBHOOK_HEADER_INVALID: 400,
  PUSH_SERVER_INVALID: 400,
  ACTION_LINK_INVALID: 404,
  ACTION_LINK_USED: 409,
  ACTION_LINK_EXPIRED: 410,
  PUSH_TARGET_FORBIDDEN: 400,
  PUSH_CHECK_FAILED: 400,
  PASSWORD_TOO_SHORT: 400,
  PASSWORD_REQUIRED: 400,
  PASSWORD_UNCHANGED: 400,
  CURRENT_PASSWORD_REQUIRED: 400,
  EMAIL_INVALID: 400,
  USERNAME_REQUIRED: 400,
  NOT_AUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  ACCOUNT_DISABLED: 403,
  WRONG_PASSWORD: 400,
  CSRF_REJECTED: 403,
  FORBIDDEN: 403,
  DISCORD_IDENTITY_REQUIRED: 403,
  DISCORD_PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  REMINDER_NOT_FOUND: 404,
  DESTINATION_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  DELIVERY_IN_PROGRESS: 409,
  DESTINATION_DISABLED: 409,
  CURSOR_INVALID: 400,
  EMAIL_TAKEN: 409,
  DISCORD_ALREADY_LINKED: 409,
  NO_APP_IDENTITY: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  DISCORD_NOT_CONFIGURED: 503,
  DATABASE_BUSY: 503,
  STORAGE_FULL: 507,
  DISCORD_BOT_NOT_IN_GUILD: 400,
  DISCORD_OAUTH_FAILED: 400,
  // `publish` (crosspost) on a channel destination that is not an announcement channel.
  DISCORD_PUBLISH_NOT_ANNOUNCEMENT: 400,
  // `forum_tag_ids` on a channel that is not a forum, a tag the forum does not have, none where the forum requires one.
  DISCORD_TAGS_NOT_FORUM: 400,
  DISCORD_UNKNOWN_FORUM_TAG: 400,
  DISCORD_FORUM_TAG_REQUIRED: 400,
  // A moderated forum tag where the owner or the bot lacks Manage Threads.
  DISCORD_FORUM_TAG_MODERATED: 403,
  DISCORD_OAUTH_STATE_MISMATCH: 400,
  DISCORD_UNAVAILABLE: 502,
  WEBHOOK_TEST_FAILED: 502,
  // Email (server/mail): "not configured" is the caller's business (ask the administrator), not an outage.
  MAIL_NOT_CONFIGURED: 400,
  // Matrix destinations without the administrator's bot account (MATRIX_HOMESERVER_URL, MATRIX_ACCESS_TOKEN).
  MATRIX_NOT_CONFIGURED: 400,
  // Telegram destinations without the administrator's bot (TELEGRAM_BOT_TOKEN).
  TELEGRAM_NOT_CONFIGURED: 400,
  // A Telegram chat this account has not connected with a /start code.
  TELEGRAM_CHAT_NOT_CONNECTED: 400,
  // The webhook called without Telegram's secret token header.
  TELEGRAM_WEBHOOK_REFUSED: 401,
  RESET_TOKEN_INVALID: 400,
  RESET_TOKEN_USED: 410,
  RESET_TOKEN_EXPIRED: 410,
  CONFIRM_TOKEN_INVALID: 400,
  CONFIRM_TOKEN_EXPIRED: 410,
  EMAIL_HOURLY_LIMIT: 429,
  EMAIL_REJECTED: 422,
  // The same Idempotency-Key sent with another request (server/reminders/idempotency.ts).
  IDEMPOTENCY_KEY_REUSED: 422,
  EMAIL_SMTP_UNAVAILABLE: 502,
  // Personal access tokens (server/accounts/access-tokens.ts, docs/api.md).
  TOKEN_NAME_REQUIRED: 400,
  TOKEN_SCOPES_INVALID: 400,
  TOKEN_EXPIRY_INVALID: 400,
  TOKEN_SCOPE: 403,
  TOKEN_NOT_ALLOWED: 403,
  TOKEN_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  TWO_FACTOR_NOT_STARTED: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  TWO_FACTOR_CODE_INVALID: 400,
  TWO_FACTOR_TICKET_INVALID: 401,
  TOKEN_LIMIT: 409,
  // Passkeys (server/accounts/passkeys.ts, docs/security.md "Passkeys").
  PASSKEY_NAME_REQUIRED: 400,
  PASSKEY_LIMIT: 409,
  PASSKEY_CHALLENGE_INVALID: 400,
  PASSKEY_INVALID: 400,
  PASSKEY_ALREADY_REGISTERED: 409,
  PASSKEY_NOT_FOUND: 404,
  PASSKEY_UNKNOWN: 401,
  PASSKEY_SIGN_IN_FAILED: 401,
  PASSKEY_COUNTER_INVALID: 401,
  // Servers (docs/servers.md): a server the account or the bot is not in; a member where managers only.
  SERVER_NOT_FOUND: 404,
  NOT_SERVER_MANAGER: 403,
  // A server's rules refusing a reminder in one of its channels (docs/servers.md "Rules").
  SERVER_RULE_WHO_CAN_CREATE: 403,
  SERVER_RULE_CHANNEL: 403,
  SERVER_RULE_ROLE_MENTIONS: 403,
  SERVER_RULE_EVERYONE_MENTION: 403,
  SERVER_RULE_MAX_REMINDERS: 403,
  SERVER_RULE_REMIND_ME_TOO: 403,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

function defaultStatus(code: ErrorCode): number {
  return ERROR_CODES[code];
}

export const notFound = (what = 'Reminder not found') => new AppError('REMINDER_NOT_FOUND', what);
export const badRequest = (code: ErrorCode, message: string, details?: Record<string, unknown>) =>
  new AppError(code, message, ERROR_CODES[code], details);
