/**
 * A test push service on 127.0.0.1, written from the Web Push RFCs, standing for FCM, Mozilla's
 * autopush or Apple's service:
 *
 *  - RFC 8030 (the protocol): a push message is `POST <endpoint>` with a `TTL` header (required:
 *    400 without it), an optional `Urgency` (very-low, low, normal, high); a message accepted is
 *    `201 Created` with a `Location`. Answers the tests script: 404/410 (subscription gone), 413,
 *    429 with `Retry-After`, 5xx.
 *  - RFC 8292 (VAPID): `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256 over
 *    `{ aud, exp, sub }`, `aud` the endpoint's origin, `exp` at most 24 hours ahead, `sub` a
 *    mailto: or https: contact. A bad signature, audience or expiry is 401; a key other than the
 *    one the subscription was made with is 403 (section 4.2).
 *  - RFC 8291 (message encryption) with RFC 8188's aes128gcm: the body is `salt(16) | rs(4) |
 *    idlen(1) | keyid(= the sender's ephemeral P-256 public key) | records`; the service decrypts
 *    it here with the subscription's private key and auth secret, as the browser would.
 *
 * `subscribe()` makes what a browser makes (PushManager.subscribe): a P-256 key pair and a 16-byte
 * auth secret with node:crypto, and an endpoint on this service.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { countWaiter, listenOnLoopback } from './loopback-fake.ts';

export type PushSubscriptionJson = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
};

export interface PushRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The VAPID JWT's claims, when it verified. */
  claims: { aud: string; exp: number; sub: string } | null;
  /** The decrypted payload, parsed as JSON (what the service worker receives). */
  payload: any;
  status: number;
}

export interface PushScript {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakePushService {
  url: string;
  /** Every POST, in order, with the answer given. */
  requests: PushRequest[];
  /** The payloads decrypted from accepted messages. */
  messages: any[];
  /** A new subscription, as a browser makes one for `applicationServerKey` (the server's VAPID public key). */
  subscribe(applicationServerKey: string): PushSubscriptionJson;
  /** Forgets a subscription: later messages to it are 410 Gone, as after the browser unsubscribed. */
  unsubscribe(endpoint: string): void;
  /** Answers the next messages with these instead (one each), then goes back to normal. */
  script(...answers: PushScript[]): void;
  waitForMessages(count: number, timeoutMs?: number): Promise<any[]>;
  close(): Promise<void>;
}

interface Subscription {
  ecdh: ECDH;
  auth: Buffer;
  applicationServerKey: string;
}

const b64u = (text: string) => Buffer.from(text, 'base64url');

/** A raw uncompressed P-256 point as a public KeyObject. */
function p256PublicKey(raw: Buffer) {
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, format: 'jwk' });
}

/** RFC 8292 section 2: the claims of a valid JWT for `origin`, or why not. */
export function verifyVapid(authorization: string | undefined, origin: string, nowSeconds = Math.floor(Date.now() / 1000)): { claims: { aud: string; exp: number; sub: string }; key: string } | { error: string } {
  const match = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!match) return { error: 'no vapid authorization' };
  const params = Object.fromEntries(match[1]!.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = params.t;
  const k = params.k;
  if (!t || !k) return { error: 'vapid t= and k= are required' };
  const [h, c, s] = t.split('.');
  if (!h || !c || !s) return { error: 'malformed JWT' };
  const header = JSON.parse(b64u(h).toString('utf8')) as { typ?: string; alg?: string };
  if (header.alg !== 'ES256') return { error: `alg ${header.alg}` };
  const key = b64u(k);
  if (key.length !== 65 || key[0] !== 4) return { error: 'k is not a P-256 point' };
  const ok = verify('sha256', Buffer.from(`${h}.${c}`), { key: p256PublicKey(key), dsaEncoding: 'ieee-p1363' }, b64u(s));
  if (!ok) return { error: 'bad signature' };
  const claims = JSON.parse(b64u(c).toString('utf8')) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) return { error: `aud ${claims.aud} is not ${origin}` };
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds || claims.exp > nowSeconds + 24 * 3600) return { error: 'exp is not within 24 hours' };
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return { error: 'sub is not a mailto: or https: contact' };
  return { claims, key: k };
}

/** RFC 8291 section 3.4 and RFC 8188 section 2: the plaintext of an aes128gcm body. */
export function decryptAes128gcm(body: Buffer, sub: { ecdh: ECDH; auth: Buffer }): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const records = body.subarray(21 + idlen);
  const uaPublic = sub.ecdh.getPublicKey();
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  if (records.length > rs) throw new Error('more than one record: Chime sends one');
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with 0x02 then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

export async function startFakePushService(): Promise<FakePushService> {
  const requests: PushRequest[] = [];
  const messages: any[] = [];
  const subscriptions = new Map<string, Subscription>();
  const scripted: PushScript[] = [];
  const arrivals = countWaiter(messages, 'fake push service messages');
  let origin = '';

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const record: PushRequest = { path, headers: req.headers, claims: null, payload: null, status: 0 };
      const answer = (status: number, text = '', headers: Record<string, string> = {}) => {
        record.status = status;
        res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(text);
      };
      if (req.method !== 'POST') return answer(405);
      requests.push(record);
      const next = scripted.shift();
      if (next) return answer(next.status, next.body ?? '', next.headers);
      const id = /^\/push\/([\w-]+)$/.exec(path)?.[1];
      const sub = id ? subscriptions.get(id) : undefined;
      if (!sub) return answer(id ? 410 : 404, 'push subscription has unsubscribed or expired.');
      if (req.headers.ttl === undefined || !/^\d+$/.test(String(req.headers.ttl))) return answer(400, 'TTL header required');
      const vapid = verifyVapid(req.headers.authorization, origin);
      if ('error' in vapid) return answer(401, vapid.error);
      if (vapid.key !== sub.applicationServerKey) return answer(403, 'the key is not the one the subscription was made with');
      record.claims = vapid.claims;
      if (req.headers['content-encoding'] !== 'aes128gcm') return answer(415, 'content-encoding must be aes128gcm');
      if (body.length > 4096) return answer(413, 'payload too large');
      try {
        record.payload = JSON.parse(decryptAes128gcm(body, sub).toString('utf8'));
      } catch (err) {
        return answer(400, `cannot decrypt: ${(err as Error).message}`);
      }
      messages.push(record.payload);
      answer(201, '', { location: `${origin}/message/${randomUUID()}` });
      arrivals.arrived();
    });
  });
  const listening = await listenOnLoopback(server);
  origin = listening.url;

  return {
    url: listening.url,
    requests,
    messages,
    subscribe(applicationServerKey) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomUUID();
      subscriptions.set(id, { ecdh, auth, applicationServerKey });
      return { endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    unsubscribe(endpoint) {
      subscriptions.delete(endpoint.split('/').at(-1)!);
    },
    script(...answers) {
      scripted.push(...answers);
    },
    waitForMessages: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    close: () => listening.close(),
  };
}
