/**
 * Fakes of Gotify and Pushover on 127.0.0.1, written from their API documentation.
 *
 * Gotify (gotify.net/docs/pushmsg, the REST API's /message): `POST /message` with the
 * application token in `X-Gotify-Key` (or `?token=`); JSON `{ title, message, priority, extras }`;
 * `message` is required (400 otherwise); a wrong token is 401 `{ error: "Unauthorized",
 * errorCode: 401, errorDescription }`, checked before the body.
 *
 * Pushover (pushover.net/api): `POST /1/messages.json` with form fields `token`, `user`,
 * `message`, `title`, `device`, `priority`, `url`, `url_title`; 200 `{ status: 1, request }`; a bad
 * parameter is 400 naming it (`{ token: "invalid", errors: [...], status: 0 }`); 429 when the
 * application is over its limit; `POST /1/users/validate.json` checks a user key (and device).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { countWaiter, listenOnLoopback } from './loopback-fake.ts';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  form: URLSearchParams;
}

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeService {
  url: string;
  requests: FakeRequest[];
  /** What was accepted as a notification. */
  accepted: FakeRequest[];
  /** Answers the next notifications with these instead (one each). */
  script(...answers: Scripted[]): void;
  waitForAccepted(count: number, timeoutMs?: number): Promise<FakeRequest[]>;
  close(): Promise<void>;
}

type Handler = (req: FakeRequest, answer: (status: number, body: unknown, headers?: Record<string, string>) => void, scripted: () => Scripted | undefined, accept: () => void) => void;

async function startFake(handler: Handler): Promise<FakeService> {
  const requests: FakeRequest[] = [];
  const accepted: FakeRequest[] = [];
  const scripted: Scripted[] = [];
  const arrivals = countWaiter(accepted, 'fake notifications');
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      const record: FakeRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, form: new URLSearchParams(body) };
      requests.push(record);
      handler(
        record,
        (status, payload, headers = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(payload));
        },
        () => scripted.shift(),
        () => {
          accepted.push(record);
          arrivals.arrived();
        },
      );
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    requests,
    accepted,
    script: (...answers) => scripted.push(...answers),
    waitForAccepted: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    close: loopback.close,
  };
}

export async function startFakeGotify(appTokens: Set<string>): Promise<FakeService> {
  let nextId = 1;
  return startFake((req, answer, scripted, accept) => {
    const url = new URL(req.path, 'http://x');
    if (req.method === 'GET' && url.pathname === '/version') return answer(200, { version: '2.6.1', commit: 'x', buildDate: 'x' });
    if (req.method !== 'POST' || url.pathname !== '/message') return answer(404, { error: 'Not Found', errorCode: 404, errorDescription: 'page not found' });
    const token = (req.headers['x-gotify-key'] as string | undefined) ?? url.searchParams.get('token');
    if (!token || !appTokens.has(token)) return answer(401, { error: 'Unauthorized', errorCode: 401, errorDescription: 'you need to provide a valid access token or user credentials to access this api' });
    const next = scripted();
    if (next) return answer(next.status, next.body ?? { error: 'scripted', errorCode: next.status, errorDescription: 'scripted' }, next.headers);
    if (!req.json || typeof req.json.message !== 'string' || !req.json.message) return answer(400, { error: 'Bad Request', errorCode: 400, errorDescription: "Field 'message' is required" });
    accept();
    return answer(200, { id: nextId++, appid: 1, message: req.json.message, title: req.json.title, priority: req.json.priority ?? 0, extras: req.json.extras, date: new Date().toISOString() });
  });
}

export async function startFakePushover(appTokens: Set<string>, users: Map<string, string[]>): Promise<FakeService> {
  return startFake((req, answer, scripted, accept) => {
    const isMessages = req.path === '/1/messages.json';
    const isValidate = req.path === '/1/users/validate.json';
    if (req.method !== 'POST' || (!isMessages && !isValidate)) return answer(404, { errors: ['not found'], status: 0 });
    const f = req.form;
    const request = 'b8a6c2d4-0000-4000-8000-000000000000';
    if (isMessages) {
      const next = scripted();
      if (next) return answer(next.status, next.body ?? { errors: ['scripted'], status: 0, request }, next.headers);
    }
    if (!appTokens.has(f.get('token') ?? '')) return answer(400, { token: 'invalid', errors: ['application token is invalid'], status: 0, request });
    const devices = users.get(f.get('user') ?? '');
    if (!devices) return answer(400, { user: 'invalid', errors: ['user identifier is not a valid user, group, or subscribed user key'], status: 0, request });
    const device = f.get('device');
    if (device && !devices.includes(device)) return answer(400, { device: 'invalid', errors: ['device name is not valid for user'], status: 0, request });
    if (isValidate) return answer(200, { status: 1, group: 0, devices, licenses: ['Android'], request });
    if (!f.get('message')) return answer(400, { message: 'cannot be blank', errors: ['message cannot be blank'], status: 0, request });
    accept();
    return answer(200, { status: 1, request });
  });
}
