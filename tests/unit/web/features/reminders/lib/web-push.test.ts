import { describe, expect, it, vi } from 'vitest';
import { applicationServerKey, subscribeThisBrowser, WebPushError, webPushDestination, type PushEnvironment } from '../../../../../../web/src/features/reminders/lib/web-push.ts';

const KEY = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 9)]).toString('base64url');
const SUBSCRIPTION = { endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/abc', keys: { p256dh: 'p', auth: 'a' } };

function env(permission: NotificationPermission, answer: NotificationPermission = permission, over: Partial<PushEnvironment> = {}) {
  const subscribe = vi.fn(async () => ({ toJSON: () => SUBSCRIPTION }) as unknown as PushSubscription);
  const requestPermission = vi.fn(async () => answer);
  const e: PushEnvironment = {
    supported: true,
    permission: () => permission,
    requestPermission,
    pushManager: async () => ({ getSubscription: async () => null, subscribe }),
    userAgent: 'UA',
    ...over,
  };
  return { e, subscribe, requestPermission };
}

const problemOf = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => (err instanceof WebPushError ? err.problem : err));

describe('"This browser" as a destination', () => {
  it('turns the key into the bytes applicationServerKey takes', () => {
    expect(Buffer.from(applicationServerKey(KEY))).toEqual(Buffer.from(KEY, 'base64url'));
  });

  it('asks the permission, subscribes with the server key, and sends the subscription with the user agent', async () => {
    const { e, subscribe, requestPermission } = env('default', 'granted');
    expect(await subscribeThisBrowser(e, KEY, [])).toEqual({ type: 'web_push', metadata: { ...SUBSCRIPTION, user_agent: 'UA' } });
    expect(requestPermission).toHaveBeenCalledOnce();
    const options = subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(options[0].userVisibleOnly).toBe(true);
    expect(Buffer.from(options[0].applicationServerKey as Uint8Array)).toEqual(Buffer.from(KEY, 'base64url'));
  });

  it('says why not: no push support, blocked, dismissed, no key, already added', async () => {
    expect(await problemOf(subscribeThisBrowser(null, KEY, []))).toBe('unsupported');
    expect(await problemOf(subscribeThisBrowser(env('default', 'granted', { supported: false }).e, KEY, []))).toBe('unsupported');
    const blocked = env('denied');
    expect(await problemOf(subscribeThisBrowser(blocked.e, KEY, []))).toBe('denied');
    expect(blocked.requestPermission).not.toHaveBeenCalled();
    expect(await problemOf(subscribeThisBrowser(env('default', 'denied').e, KEY, []))).toBe('denied');
    expect(await problemOf(subscribeThisBrowser(env('default', 'default').e, KEY, []))).toBe('dismissed');
    expect(await problemOf(subscribeThisBrowser(env('granted').e, null, []))).toBe('noKey');
    expect(await problemOf(subscribeThisBrowser(env('granted').e, KEY, [webPushDestination(SUBSCRIPTION, 'other')]))).toBe('already');
    expect(await problemOf(subscribeThisBrowser(env('granted', 'granted', { pushManager: async () => Promise.reject(new Error('AbortError')) }).e, KEY, []))).toBe('failed');
  });
});
