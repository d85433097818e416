/** The ntfy, Gotify, Pushover and Matrix form: adding, and editing a saved destination without seeing its token (docs/notifications.md). */
import { describe, expect, it } from 'vitest';
import { initialPushValues, PUSH_FIELDS, pushMetadata, pushMissing, storedTokenHint } from '../../../../../../web/src/features/reminders/lib/push-fields.ts';

const ntfy = PUSH_FIELDS.ntfy;
const gotify = PUSH_FIELDS.gotify;

describe('push destination form', () => {
  it('starts a new destination with the defaults and sends what was typed, the priority as a number', () => {
    const values = initialPushValues(ntfy);
    expect(values).toEqual({ server: 'https://ntfy.sh', topic: '', access_token: '', priority: '' });
    expect(pushMissing(ntfy, values)).toBe(true);
    const typed = { ...values, topic: ' chores ', access_token: 'tk_abc', priority: '4' };
    expect(pushMissing(ntfy, typed)).toBe(false);
    expect(pushMetadata(ntfy, typed)).toEqual({ server: 'https://ntfy.sh', topic: 'chores', access_token: 'tk_abc', priority: 4 });
  });

  it('opens a saved destination with its fields and an empty token, which keeps the stored one', () => {
    const saved = { server: 'https://gotify.example.com', priority: 7, token_hint: '…jKlM' };
    const values = initialPushValues(gotify, saved);
    expect(values).toEqual({ server: 'https://gotify.example.com', app_token: '', priority: '7' });
    expect(storedTokenHint(saved)).toBe('…jKlM');
    // The token is required, but the stored one counts.
    expect(pushMissing(gotify, values, saved)).toBe(false);
    expect(pushMissing(gotify, values, { server: 'https://gotify.example.com' })).toBe(true);
    // token_hint goes back: the server keeps the stored token.
    expect(pushMetadata(gotify, { ...values, priority: '2' }, saved)).toEqual({ server: 'https://gotify.example.com', priority: 2, token_hint: '…jKlM' });
  });

  it('a new token replaces the stored one (no hint sent), and an emptied field is dropped', () => {
    const saved = { server: 'https://gotify.example.com', priority: 7, token_hint: '…jKlM' };
    expect(pushMetadata(gotify, { server: 'https://gotify.example.com', app_token: 'New.Token', priority: '' }, saved)).toEqual({ server: 'https://gotify.example.com', app_token: 'New.Token' });
  });

  it('keeps what the form does not show (ntfy tags set through the API), and shows back a token not saved yet', () => {
    const saved = { server: 'https://ntfy.sh', topic: 'chores', tags: ['warning'], token_hint: '…wxyz' };
    expect(pushMetadata(ntfy, { ...initialPushValues(ntfy, saved), topic: 'home' }, saved)).toEqual({ server: 'https://ntfy.sh', topic: 'home', tags: ['warning'], token_hint: '…wxyz' });
    // Added in this page but not saved: its token is still here, and is shown in its (password) field.
    const unsaved = { server: 'https://ntfy.sh', topic: 'chores', access_token: 'tk_typed' };
    expect(initialPushValues(ntfy, unsaved).access_token).toBe('tk_typed');
    expect(storedTokenHint(unsaved)).toBeNull();
  });

  it('Matrix asks only for the room', () => {
    expect(PUSH_FIELDS.matrix.map((f) => f.name)).toEqual(['room']);
    expect(pushMetadata(PUSH_FIELDS.matrix, { room: ' #family:example.org ' }, { room: '#old:example.org', room_id: '!old:example.org' })).toEqual({ room: '#family:example.org', room_id: '!old:example.org' });
  });
});
