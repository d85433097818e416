/**
 * The address of one reminder's page in the dashboard (`/reminders/<id>`), as mails, calendar
 * events, the bot's answers and Discord failure notices quote it. The id is escaped as one path
 * segment; a trailing slash on PUBLIC_URL does not double the separator.
 */
export function reminderPageUrl(publicUrl: string, reminderId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/reminders/${encodeURIComponent(reminderId)}`;
}
