/*
 * What the service worker (sw.js) decides, kept apart as plain functions so a unit test can load
 * them (tests/unit/web/public/sw-logic.test.ts). The payload is what the server's Web Push sender
 * encrypts (server/destinations/web-push/sender.ts): { title, body, url?, actions: [{ action,
 * title, url }] }, the actions' urls being the delivery's action links (POST /a/<token>).
 */
(function (scope) {
  'use strict';

  // Raster images: Chrome shows no SVG in a notification. The badge is drawn from its alpha
  // channel alone, in Android's status bar (scripts/render-icons.mjs makes both).
  var ICON = '/icon-192.png';
  var BADGE = '/badge-96.png';

  /** The notification to show for a push payload (text, or JSON as Chime sends it). */
  function notificationOf(payload) {
    var data = payload && typeof payload === 'object' ? payload : { title: 'Chime', body: String(payload || '') };
    var actions = Array.isArray(data.actions) ? data.actions.filter(function (a) { return a && typeof a.action === 'string' && typeof a.url === 'string'; }) : [];
    var links = {};
    actions.forEach(function (a) { links[a.action] = a.url; });
    return {
      title: typeof data.title === 'string' && data.title ? data.title : 'Chime',
      options: {
        body: typeof data.body === 'string' ? data.body : '',
        icon: ICON,
        badge: BADGE,
        // One notification per reminder page: a later one replaces it rather than piling up.
        tag: typeof data.url === 'string' ? data.url : undefined,
        data: { url: typeof data.url === 'string' ? data.url : '/', links: links },
        actions: actions.map(function (a) { return { action: a.action, title: String(a.title || a.action) }; }),
      },
    };
  }

  /** What a click does: a button POSTs its action link; the notification itself opens the reminder's page. */
  function clickPlan(action, data) {
    var links = (data && data.links) || {};
    if (action && typeof links[action] === 'string') return { kind: 'post', url: links[action] };
    return { kind: 'open', url: (data && typeof data.url === 'string' && data.url) || '/' };
  }

  /** The notification that says what the tap did: the action page's sentence, in the account's language. */
  function answerOf(answer, fallbackTitle) {
    var text = answer && typeof answer.text === 'string' && answer.text ? answer.text : answer && typeof answer.error === 'string' ? answer.error : null;
    return { title: fallbackTitle || 'Chime', options: { body: text || '', icon: ICON, badge: BADGE } };
  }

  scope.chimePush = { notificationOf: notificationOf, clickPlan: clickPlan, answerOf: answerOf };
})(typeof self !== 'undefined' ? self : globalThis);
