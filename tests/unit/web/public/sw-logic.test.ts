/** The service worker's decisions (web/public/sw-logic.js), loaded as the worker loads it: a classic script setting `self.chimePush`. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../helpers/repo-root.ts';

const scope: any = {};
runInNewContext(readFileSync(path.join(REPO_ROOT, 'web/public/sw-logic.js'), 'utf8'), { self: scope });
const { notificationOf, clickPlan, answerOf } = scope.chimePush;

const PAYLOAD = {
  title: '⏰ Rappel',
  body: 'Sortir les poubelles',
  url: 'https://chime.example.org/reminders/r1',
  actions: [
    { action: 'snooze10', title: 'Reporter 10 min', url: 'https://chime.example.org/a/s' },
    { action: 'tomorrow', title: 'Demain', url: 'https://chime.example.org/a/t' },
    { action: 'done', title: 'Terminé', url: 'https://chime.example.org/a/d' },
  ],
};

describe('the service worker', () => {
  it('shows the pushed reminder with its three actions, keeping their links in the notification', () => {
    const n = notificationOf(PAYLOAD);
    expect(n.title).toBe('⏰ Rappel');
    expect(n.options.body).toBe('Sortir les poubelles');
    expect(n.options.actions.map((a: any) => [a.action, a.title])).toEqual([
      ['snooze10', 'Reporter 10 min'],
      ['tomorrow', 'Demain'],
      ['done', 'Terminé'],
    ]);
    expect(n.options.data).toEqual({ url: PAYLOAD.url, links: { snooze10: 'https://chime.example.org/a/s', tomorrow: 'https://chime.example.org/a/t', done: 'https://chime.example.org/a/d' } });
  });

  it('shows a test send (no link, no actions) and a payload that is not JSON', () => {
    expect(notificationOf({ title: 'T', body: 'x', actions: [] }).options).toMatchObject({ body: 'x', actions: [], data: { url: '/', links: {} } });
    expect(notificationOf('plain text')).toMatchObject({ title: 'Chime', options: { body: 'plain text' } });
    expect(notificationOf(null).title).toBe('Chime');
  });

  it('a button POSTs its action link; the notification itself opens the reminder page', () => {
    const { data } = notificationOf(PAYLOAD).options;
    expect(clickPlan('snooze10', data)).toEqual({ kind: 'post', url: 'https://chime.example.org/a/s' });
    expect(clickPlan('done', data)).toEqual({ kind: 'post', url: 'https://chime.example.org/a/d' });
    expect(clickPlan('', data)).toEqual({ kind: 'open', url: PAYLOAD.url });
    expect(clickPlan('unknown', data)).toEqual({ kind: 'open', url: PAYLOAD.url });
    expect(clickPlan('', undefined)).toEqual({ kind: 'open', url: '/' });
  });

  it('says what the tap did with the action page sentence', () => {
    expect(answerOf({ ok: true, outcome: 'snoozed', text: 'Reporté.' }, '⏰ Rappel')).toMatchObject({ title: '⏰ Rappel', options: { body: 'Reporté.' } });
    expect(answerOf({ ok: false, outcome: 'used', text: 'Déjà utilisé.', code: 'ACTION_LINK_USED', error: 'x' }, 'T').options.body).toBe('Déjà utilisé.');
    expect(answerOf({ error: 'Gone', code: 'REMINDER_NOT_FOUND' }, 'T').options.body).toBe('Gone');
  });
});
