/**
 * "This browser" as a destination (docs/notifications.md "Browser push"): the browser's push
 * subscription, made with the server's VAPID key after the person allowed notifications. The
 * browser APIs are passed in, so the rules are unit-tested without a browser
 * (tests/unit/web/features/reminders/lib/web-push.test.ts).
 */
import type { EditableDestination } from '../api/destinations';

/** Why this browser cannot be added, or what went wrong: each has its sentence (webpush.json `form.*`). */
export type WebPushProblem = 'unsupported' | 'denied' | 'dismissed' | 'noKey' | 'already' | 'failed';

export class WebPushError extends Error {
  constructor(readonly problem: WebPushProblem) {
    super(problem);
  }
}

/** What subscribing needs from the browser. */
export interface PushEnvironment {
  /** Whether the Notification, service worker and Push APIs are all there (a Safari tab outside the home screen has none). */
  supported: boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  /** The service worker's push manager once it is ready. */
  pushManager(): Promise<Pick<PushManager, 'getSubscription' | 'subscribe'>>;
  userAgent: string;
}

/** The browser's own, or null where it has no push at all. */
export function browserPushEnvironment(): PushEnvironment | null {
  if (typeof window === 'undefined') return null;
  const supported = 'Notification' in window && 'serviceWorker' in navigator && 'PushManager' in window;
  return {
    supported,
    permission: () => Notification.permission,
    requestPermission: () => Notification.requestPermission(),
    // Registered at start (web/src/main.tsx); registering again is harmless and covers a failed first try.
    pushManager: async () => {
      await navigator.serviceWorker.register('/sw.js');
      return (await navigator.serviceWorker.ready).pushManager;
    },
    userAgent: navigator.userAgent,
  };
}

/** The key as `applicationServerKey` takes it: the bytes of the base64url text. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const text = atob(b64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The destination of a subscription, as the server takes it (it names the browser from the user agent). */
export function webPushDestination(subscription: PushSubscriptionJSON, userAgent: string): EditableDestination {
  const keys = subscription.keys ?? {};
  return { type: 'web_push', metadata: { endpoint: subscription.endpoint ?? '', keys: { p256dh: keys.p256dh ?? '', auth: keys.auth ?? '' }, user_agent: userAgent } };
}

/**
 * Asks for the permission (only when called: on a click), subscribes with the server's key (or
 * reuses this browser's subscription) and answers the destination. Throws WebPushError.
 */
export async function subscribeThisBrowser(env: PushEnvironment | null, publicKey: string | null, existing: readonly EditableDestination[]): Promise<EditableDestination> {
  if (!env?.supported) throw new WebPushError('unsupported');
  if (!publicKey) throw new WebPushError('noKey');
  if (env.permission() === 'denied') throw new WebPushError('denied');
  const permission = env.permission() === 'granted' ? 'granted' : await env.requestPermission();
  if (permission === 'denied') throw new WebPushError('denied');
  if (permission !== 'granted') throw new WebPushError('dismissed');
  let subscription: PushSubscription | null;
  try {
    const manager = await env.pushManager();
    subscription = (await manager.getSubscription()) ?? (await manager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) }));
  } catch {
    throw new WebPushError('failed');
  }
  const destination = webPushDestination(subscription.toJSON(), env.userAgent);
  if (existing.some((d) => d.type === 'web_push' && d.metadata.endpoint === destination.metadata.endpoint)) throw new WebPushError('already');
  return destination;
}
