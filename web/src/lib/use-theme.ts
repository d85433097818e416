import { useSyncExternalStore } from 'react';
import { getTheme, resolveTheme, setTheme, subscribeTheme, type Theme } from './theme';

export function useTheme(): { theme: Theme; resolvedTheme: 'light' | 'dark'; setTheme: (theme: Theme) => void } {
  const theme = useSyncExternalStore(subscribeTheme, getTheme, getTheme);
  return { theme, resolvedTheme: resolveTheme(theme), setTheme };
}
