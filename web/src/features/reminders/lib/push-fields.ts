/**
 * The fields of the ntfy, Gotify, Pushover and Matrix form (docs/notifications.md), and how they
 * map to a destination's metadata, when it is added and when a saved one is edited. A saved
 * destination's token is never answered by the API (only `token_hint`): its field starts empty,
 * and left empty it keeps the stored token (the save and the check use the stored one).
 */
import type { DestinationMetadata } from '@/lib/api/reminders';

export type PushType = 'ntfy' | 'gotify' | 'pushover' | 'matrix';

export interface PushField {
  name: 'server' | 'topic' | 'access_token' | 'app_token' | 'priority' | 'user_key' | 'device' | 'room';
  label: string;
  hint?: string;
  placeholder?: string;
  secret?: boolean;
  required?: boolean;
  initial?: string;
}

/** Label keys spelled out so the locale test sees them. */
export const PUSH_FIELDS: Record<PushType, PushField[]> = {
  ntfy: [
    { name: 'server', label: 'form.ntfy.server', hint: 'form.ntfy.serverHint', initial: 'https://ntfy.sh', required: true },
    { name: 'topic', label: 'form.ntfy.topic', hint: 'form.ntfy.topicHint', placeholder: 'form.ntfy.topicPlaceholder', required: true },
    { name: 'access_token', label: 'form.ntfy.token', hint: 'form.ntfy.tokenHint', secret: true },
    { name: 'priority', label: 'form.ntfy.priority', hint: 'form.ntfy.priorityHint' },
  ],
  gotify: [
    { name: 'server', label: 'form.gotify.server', placeholder: 'form.gotify.serverPlaceholder', required: true },
    { name: 'app_token', label: 'form.gotify.token', hint: 'form.gotify.tokenHint', secret: true, required: true },
    { name: 'priority', label: 'form.gotify.priority', hint: 'form.gotify.priorityHint' },
  ],
  pushover: [
    { name: 'user_key', label: 'form.pushover.userKey', hint: 'form.pushover.userKeyHint', required: true },
    { name: 'app_token', label: 'form.pushover.token', hint: 'form.pushover.tokenHint', secret: true, required: true },
    { name: 'device', label: 'form.pushover.device', hint: 'form.pushover.deviceHint' },
  ],
  // The bot account is the administrator's: the user only names the room that invited it.
  matrix: [{ name: 'room', label: 'matrix:form.room', hint: 'matrix:form.roomHint', placeholder: 'matrix:form.roomPlaceholder', required: true }],
};

type Values = Record<string, string>;

/** The stored token's last characters ("…abcd") when the destination has one the form does not show. */
export function storedTokenHint(editing: DestinationMetadata | undefined): string | null {
  return typeof editing?.token_hint === 'string' && editing.token_hint ? editing.token_hint : null;
}

/**
 * The form's values: the defaults for a new destination; an edited one's fields as saved. A secret
 * field shows a token only when the destination is not saved yet (it is still in this page).
 */
export function initialPushValues(fields: readonly PushField[], editing?: DestinationMetadata): Values {
  if (!editing) return Object.fromEntries(fields.map((f) => [f.name, f.initial ?? '']));
  return Object.fromEntries(
    fields.map((f) => {
      const v = (editing as Record<string, unknown>)[f.name];
      return [f.name, typeof v === 'string' || typeof v === 'number' ? String(v) : ''];
    }),
  );
}

/** A required field is blank; a token left empty is not, when a stored one is kept. */
export function pushMissing(fields: readonly PushField[], values: Values, editing?: DestinationMetadata): boolean {
  const kept = storedTokenHint(editing) !== null;
  return fields.some((f) => f.required && !values[f.name]?.trim() && !(f.secret && kept));
}

/**
 * The metadata to check and save. An edited destination keeps what the form does not show (ntfy
 * tags set through the API, Matrix's resolved room id...); a field emptied is dropped. A token left
 * empty sends back `token_hint`, which tells the server to keep the stored token; a new one replaces it.
 */
export function pushMetadata(fields: readonly PushField[], values: Values, editing?: DestinationMetadata): DestinationMetadata {
  const metadata: Record<string, unknown> = { ...(editing ?? {}) };
  for (const f of fields) delete metadata[f.name];
  let newToken = false;
  for (const f of fields) {
    const v = values[f.name]?.trim();
    if (!v) continue;
    metadata[f.name] = f.name === 'priority' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (f.secret) newToken = true;
  }
  if (newToken) delete metadata.token_hint;
  return metadata as DestinationMetadata;
}
