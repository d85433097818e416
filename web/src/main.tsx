// Order matters: the theme class and the language are set before the first render.
import './lib/theme';
import { i18nReady } from './lib/i18n';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

// The service worker shows pushed reminders (docs/notifications.md "Browser push") and makes the
// dashboard installable; registering it asks nothing of the person (the permission is asked on a click).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch((err: unknown) => console.error('Service worker not registered', err));
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// A stored non-English language is fetched first, so the first paint is already translated.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
