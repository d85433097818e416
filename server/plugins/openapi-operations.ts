/**
 * What the generated API reference (GET /api/openapi.json, /api/docs) says of each route beyond its
 * schemas: a tag, a one-line summary, and whether it needs a signed-in caller. tests/openapi.test.ts
 * fails when a documented route has no entry here.
 */
export interface OperationText {
  tag: string;
  summary: string;
  /** No credential is read (the route is open to anyone, or checks its own secret). */
  public?: true;
}

export const TAGS = [
  { name: 'Reminders', description: 'Reminders, their occurrences, skips and snoozes, and their destinations. Another account’s reminder is always 404 REMINDER_NOT_FOUND.' },
  { name: 'Deliveries', description: 'Delivery history, resends and the problems list.' },
  { name: 'Import and export', description: 'An account’s reminders as JSON, CSV or iCalendar.' },
  { name: 'Access tokens', description: 'Personal access tokens (docs/api.md). Managed with a session only.' },
  { name: 'Account', description: 'The signed-in account. Not available to access tokens.' },
  { name: 'Sign-in', description: 'Sign-up, sign-in with a password, sign-out and password reset.' },
  { name: 'Email', description: 'Confirmed email addresses for email destinations.' },
  { name: 'Discord', description: 'Discord sign-in and linking, and the servers, channels and roles the bot sees.' },
  { name: 'Server', description: 'Health, metrics, public settings and the calendar feed.' },
];

const r = (summary: string): OperationText => ({ tag: 'Reminders', summary });
const d = (summary: string): OperationText => ({ tag: 'Deliveries', summary });

export const OPERATIONS: Record<string, OperationText> = {
  'GET /api/reminders': r('List the account’s reminders, newest first'),
  'POST /api/reminders': r('Create a reminder'),
  'GET /api/reminders/preview': r('Preview the next occurrences of a schedule before saving it'),
  'GET /api/reminders/{id}': r('Read one reminder'),
  'PUT /api/reminders/{id}': r('Replace a reminder (same body as create)'),
  'DELETE /api/reminders/{id}': r('Delete a reminder'),
  'POST /api/reminders/{id}/pause': r('Pause a reminder'),
  'POST /api/reminders/{id}/resume': r('Resume a paused reminder'),
  'POST /api/reminders/{id}/snooze': r('Snooze the next firing by minutes or until an instant'),
  'POST /api/reminders/{id}/duplicate': r('Copy a reminder'),
  'POST /api/reminders/{id}/skip': r('Skip one occurrence'),
  'DELETE /api/reminders/{id}/skip/{occurrence}': r('Restore a skipped occurrence'),
  'GET /api/reminders/{id}/occurrences': r('List occurrences: the next few, or those in a range (calendar)'),
  'POST /api/reminders/{id}/destinations/{destinationId}/test': r('Send a test to a saved destination'),
  'POST /api/reminders/{id}/destinations/{destinationId}/rotate-secret': r('Give a webhook destination a new signing secret'),
  'POST /api/reminders/{id}/destinations/{destinationId}/enable': r('Enable a destination that was disabled after failures'),
  'POST /api/destinations/check': r('Check one destination before saving it'),
  'POST /api/webhooks/test': r('Send a test to a webhook address before saving it'),
  'GET /api/reminders/{id}/deliveries': d('Delivery history of a reminder, newest first, with each attempt'),
  'POST /api/reminders/{id}/deliveries/{deliveryId}/resend': d('Send a past delivery again'),
  'GET /api/reminders/errors': d('Deliveries that failed, newest first'),
  'POST /api/reminders/errors/{deliveryId}/dismiss': d('Dismiss a failed delivery from the problems list'),
  'GET /api/reminders/export': { tag: 'Import and export', summary: 'Download every reminder as JSON, CSV or iCalendar' },
  'POST /api/reminders/import': { tag: 'Import and export', summary: 'Import reminders from JSON, CSV or iCalendar (or check a file with dry_run)' },
  'GET /api/tokens': { tag: 'Access tokens', summary: 'List the account’s access tokens (without their secrets)' },
  'POST /api/tokens': { tag: 'Access tokens', summary: 'Create an access token; its secret is in this answer only' },
  'DELETE /api/tokens/{id}': { tag: 'Access tokens', summary: 'Revoke an access token at once' },
  'GET /api/account': { tag: 'Account', summary: 'The signed-in account' },
  'GET /api/account/capabilities': { tag: 'Account', summary: 'Which sign-in methods the account has' },
  'PUT /api/account/timezone': { tag: 'Account', summary: 'Change the account’s time zone' },
  'PUT /api/account/language': { tag: 'Account', summary: 'Change the language of mails and bot messages' },
  'PUT /api/account/identity/app/username': { tag: 'Account', summary: 'Change the username' },
  'PUT /api/account/identity/app/email': { tag: 'Account', summary: 'Change the sign-in email' },
  'POST /api/account/identity/app/change-password': { tag: 'Account', summary: 'Change the password (signs out every other session and every access token)' },
  'DELETE /api/account': { tag: 'Account', summary: 'Close the account and delete everything it holds' },
  'GET /api/account/calendar-feed': { tag: 'Account', summary: 'The calendar feed address (created on first call)' },
  'POST /api/account/calendar-feed/rotate': { tag: 'Account', summary: 'Give the calendar feed a new address' },
  'DELETE /api/account/calendar-feed': { tag: 'Account', summary: 'Turn the calendar feed off' },
  'POST /api/auth/register': { tag: 'Sign-in', summary: 'Create an account with a password', public: true },
  'POST /api/auth/login': { tag: 'Sign-in', summary: 'Sign in with a password: a session token and cookie', public: true },
  'POST /api/auth/logout': { tag: 'Sign-in', summary: 'Sign out: revoke the session and clear the cookie' },
  'POST /api/auth/password-reset': { tag: 'Sign-in', summary: 'Mail a password reset link', public: true },
  'POST /api/auth/password-reset/confirm': { tag: 'Sign-in', summary: 'Set a new password with a reset link', public: true },
  'POST /api/email/confirm': { tag: 'Email', summary: 'Confirm an email address with the mailed link', public: true },
  'GET /api/email/addresses': { tag: 'Email', summary: 'The account’s email addresses and whether they are confirmed' },
  'POST /api/email/addresses/confirmation': { tag: 'Email', summary: 'Mail a confirmation link to an address' },
  'POST /api/discord/guilds': { tag: 'Discord', summary: 'Discord servers of the signed-in user, and whether the bot is in them' },
  'POST /api/discord/guilds/channels': { tag: 'Discord', summary: 'Channels of a server the bot can post in' },
  'POST /api/discord/guilds/roles': { tag: 'Discord', summary: 'Roles of a server' },
  'GET /api/discord/invite-url': { tag: 'Discord', summary: 'The address that invites the bot to a server' },
  'GET /api/auth/discord/authorize-url': { tag: 'Discord', summary: 'Start a Discord sign-in or link', public: true },
  'POST /api/auth/discord/callback': { tag: 'Discord', summary: 'Where Discord sends the user back', public: true },
  'POST /api/auth/discord/setup': { tag: 'Discord', summary: 'Finish the first Discord sign-in (time zone)', public: true },
  'GET /api/config': { tag: 'Server', summary: 'Public settings the dashboard needs', public: true },
  'GET /healthz': { tag: 'Server', summary: 'Health of the process and its database', public: true },
  'GET /metrics': { tag: 'Server', summary: 'Prometheus metrics (METRICS_TOKEN as a bearer, or loopback only)', public: true },
  'GET /feeds/{file}': { tag: 'Server', summary: 'A calendar feed (the address is the credential)', public: true },
  'GET /a/{token}': { tag: 'Server', summary: 'An action link: the page saying what it will do (changes nothing)', public: true },
  'POST /a/{token}': { tag: 'Server', summary: 'An action link: snooze, tomorrow or done, once (the token is the credential)', public: true },
};
