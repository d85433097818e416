/*
 * Chime's service worker: shows reminders pushed by the server (Web Push) even when the dashboard
 * is closed, with Snooze 10 min / Tomorrow / Done buttons, and handles their taps
 * (docs/notifications.md "Browser push"). No caching: the dashboard is not offline-capable.
 */
importScripts('/sw-logic.js');

self.addEventListener('install', function () {
  self.skipWaiting();
});

self.addEventListener('activate', function (event) {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', function (event) {
  var payload = null;
  if (event.data) {
    try {
      payload = event.data.json();
    } catch {
      payload = event.data.text();
    }
  }
  var n = self.chimePush.notificationOf(payload);
  event.waitUntil(self.registration.showNotification(n.title, n.options));
});

function openPage(url) {
  var target = new URL(url, self.location.origin).href;
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === target && 'focus' in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(target);
  });
}

self.addEventListener('notificationclick', function (event) {
  var notification = event.notification;
  var plan = self.chimePush.clickPlan(event.action, notification.data);
  notification.close();
  if (plan.kind === 'open') {
    event.waitUntil(openPage(plan.url));
    return;
  }
  // The action link's POST is what acts (a GET only shows the page); its answer says what happened.
  event.waitUntil(
    fetch(plan.url, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'omit' })
      .then(function (res) {
        return res.json().catch(function () {
          return {};
        });
      })
      .catch(function () {
        return null;
      })
      .then(function (answer) {
        if (answer === null) return openPage(plan.url);
        var shown = self.chimePush.answerOf(answer, notification.title);
        return self.registration.showNotification(shown.title, shown.options);
      }),
  );
});
