/**
 * What a User-Agent header says about the device a session was opened on, for the account page's
 * list of sessions (docs/security.md): the browser, the operating system and the kind of device.
 * A few ordered patterns, not a full parser: what a person needs to recognise their own devices.
 */
export type DeviceKind = 'desktop' | 'mobile' | 'tablet' | 'unknown';

export interface DeviceDescription {
  /** "Firefox 132", "Chrome 131", "Safari 18"...; null when not recognised. */
  browser: string | null;
  /** "Windows", "macOS", "iOS 18", "Android 15", "Linux"...; null when not recognised. */
  os: string | null;
  kind: DeviceKind;
}

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", every Android browser says "Linux".
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\b(?:Chrome|CriOS|HeadlessChrome)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)(?:[.\d]*)? (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/\bcurl\/(\d+)/, 'curl'],
  [/\bDiscordBot\b|\bdiscord\/(\d+)/i, 'Discord'],
];

function browserOf(ua: string): string | null {
  for (const [pattern, name] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) return m[1] ? `${name} ${m[1]}` : name;
  }
  return null;
}

function osOf(ua: string): string | null {
  let m: RegExpExecArray | null;
  if ((m = /\b(?:iPhone|CPU) OS (\d+)/.exec(ua)) || (m = /\biPad.*? OS (\d+)/.exec(ua))) return /iPad/.test(ua) ? `iPadOS ${m[1]}` : `iOS ${m[1]}`;
  if ((m = /\bAndroid (\d+)/.exec(ua))) return `Android ${m[1]}`;
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b|\bX11\b/.test(ua)) return 'Linux';
  return null;
}

function kindOf(ua: string, os: string | null): DeviceKind {
  if (/\biPad\b|\bTablet\b/.test(ua) || (/\bAndroid\b/.test(ua) && !/\bMobile\b/.test(ua))) return 'tablet';
  if (/\bMobi|\biPhone\b|\biPod\b/.test(ua)) return 'mobile';
  if (os) return 'desktop';
  return 'unknown';
}

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const ua = userAgent ?? '';
  const browser = browserOf(ua);
  const os = osOf(ua);
  return { browser, os, kind: kindOf(ua, os) };
}
