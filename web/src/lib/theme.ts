/**
 * Theme store. Imported first by main.tsx so the `dark` class is on <html> before React renders
 * (the CSP forbids an inline script in index.html, so this is the earliest point we can run).
 */
export type Theme = 'light' | 'dark' | 'system';
export const THEME_STORAGE_KEY = 'vite-ui-theme';
export const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

const listeners = new Set<() => void>();
const media = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    if (stored === 'light' || stored === 'dark' || stored === 'system') return stored;
  } catch {
    /* storage may be blocked; fall through to the default */
  }
  return 'system';
}

let current: Theme = readTheme();

export function resolveTheme(theme: Theme): 'light' | 'dark' {
  if (theme === 'system') return media?.matches ? 'dark' : 'light';
  return theme;
}

function apply(): void {
  const root = document.documentElement;
  const resolved = resolveTheme(current);
  root.classList.toggle('dark', resolved === 'dark');
  root.classList.toggle('light', resolved === 'light');
  root.style.colorScheme = resolved;
}

export function getTheme(): Theme {
  return current;
}

export function setTheme(theme: Theme): void {
  current = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    /* ignore */
  }
  apply();
  listeners.forEach((l) => l());
}

export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// "System" follows the device live.
media?.addEventListener('change', () => {
  if (current === 'system') {
    apply();
    listeners.forEach((l) => l());
  }
});

// Another tab changed the theme.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) {
      current = readTheme();
      apply();
      listeners.forEach((l) => l());
    }
  });
  apply();
}
