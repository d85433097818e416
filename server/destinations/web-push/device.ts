/**
 * Which browser on which system a subscription belongs to, named from the user agent the
 * dashboard sends when it subscribes ("Firefox" on "Android"): a person with several devices tells
 * their destinations apart. Only these names are kept, never the user agent itself. Imports
 * nothing, so the dashboard could share it.
 */
export const BROWSERS = ['Edge', 'Opera', 'Samsung Internet', 'Firefox', 'Chrome', 'Safari', 'Browser'] as const;
export const SYSTEMS = ['Android', 'iOS', 'iPadOS', 'Windows', 'macOS', 'ChromeOS', 'Linux', 'Unknown'] as const;
export type BrowserName = (typeof BROWSERS)[number];
export type SystemName = (typeof SYSTEMS)[number];

/** The order matters: Edge and Opera say "Chrome", Chrome says "Safari". */
export function browserOf(ua: string): BrowserName {
  if (/\bEdg(e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/\bOPR\/|\bOpera\b/.test(ua)) return 'Opera';
  if (/\bSamsungBrowser\//.test(ua)) return 'Samsung Internet';
  if (/\b(Firefox|FxiOS)\//.test(ua)) return 'Firefox';
  if (/\b(Chrome|CriOS|Chromium)\//.test(ua)) return 'Chrome';
  if (/\bSafari\//.test(ua) && /\bVersion\//.test(ua)) return 'Safari';
  return 'Browser';
}

export function systemOf(ua: string): SystemName {
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\biPad\b/.test(ua)) return 'iPadOS';
  if (/\b(iPhone|iPod)\b/.test(ua)) return 'iOS';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return 'Unknown';
}
