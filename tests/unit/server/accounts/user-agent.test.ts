import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../../../../server/accounts/user-agent.ts';

describe('describeUserAgent', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131', 'Windows', 'desktop'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70', 'Edge 131', 'Windows', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari 18', 'macOS', 'desktop'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133', 'Linux', 'desktop'],
    ['Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome 131', 'Android 15', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Safari/537.36', 'Samsung Internet 26', 'Android 14', 'tablet'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1', 'Chrome 131', 'iOS 18', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1', 'Safari 17', 'iPadOS 17', 'tablet'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0', 'Opera 115', 'ChromeOS', 'desktop'],
    ['curl/8.5.0', 'curl 8', null, 'unknown'],
  ])('%s', (ua, browser, os, kind) => {
    expect(describeUserAgent(ua)).toEqual({ browser, os, kind });
  });

  it('knows nothing of an empty or missing header', () => {
    expect(describeUserAgent(undefined)).toEqual({ browser: null, os: null, kind: 'unknown' });
    expect(describeUserAgent('')).toEqual({ browser: null, os: null, kind: 'unknown' });
    expect(describeUserAgent('x'.repeat(300))).toEqual({ browser: null, os: null, kind: 'unknown' });
  });
});
