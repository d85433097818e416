/**
 * A fake ntfy server on 127.0.0.1, written from ntfy's publishing docs (docs.ntfy.sh/publish):
 * "publish as JSON" is `POST /` with a JSON body naming the `topic`; `Authorization: Bearer
 * <token>` for access tokens; errors are JSON `{ code, http, error, link }` (401 40101 for an
 * unknown token, 403 40301 when the user may not write the topic); `GET /v1/health` answers
 * `{ healthy: true }` and `GET /v1/account` the token's account (401 for an unknown token).
 * Action buttons of type `http` are what the phone app requests when tapped: `tap()` does that.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { countWaiter, listenOnLoopback } from './loopback-fake.ts';

export interface NtfyRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface NtfyScript {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeNtfy {
  url: string;
  /** Every request, in order. */
  requests: NtfyRequest[];
  /** Published messages as ntfy stored them. */
  messages: any[];
  /** token -> topics it may write; a topic listed in `protectedTopics` needs one of them. */
  tokens: Map<string, Set<string>>;
  protectedTopics: Set<string>;
  /** Answers the next publishes with these instead (one each), then goes back to normal. */
  script(...answers: NtfyScript[]): void;
  /** Resolves once `count` messages were published. */
  waitForMessages(count: number, timeoutMs?: number): Promise<any[]>;
  /** What the phone app does when a button is tapped: the http action's request (to `base` instead of the link's origin). */
  tap(message: any, label: string, base: string): Promise<Response>;
  close(): Promise<void>;
}

const error = (http: number, code: number, text: string) => ({ code, http, error: text, link: 'https://ntfy.sh/docs/publish/' });

export async function startFakeNtfy(): Promise<FakeNtfy> {
  const requests: NtfyRequest[] = [];
  const messages: any[] = [];
  const tokens = new Map<string, Set<string>>();
  const protectedTopics = new Set<string>();
  const scripted: NtfyScript[] = [];
  const arrivals = countWaiter(messages, 'fake ntfy messages');

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
      const record: NtfyRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      requests.push(record);
      const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      const auth = req.headers.authorization;
      const bearer = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : null;
      if (bearer !== null && !tokens.has(bearer)) return answer(401, error(401, 40101, 'unauthorized'));

      if (req.method === 'GET' && req.url === '/v1/health') return answer(200, { healthy: true });
      if (req.method === 'GET' && req.url === '/v1/account') {
        if (bearer === null) return answer(200, { username: '*', role: 'anonymous' });
        return answer(200, { username: 'phil', role: 'user' });
      }
      if ((req.method === 'POST' || req.method === 'PUT') && req.url === '/') {
        const next = scripted.shift();
        if (next) return answer(next.status, next.body ?? error(next.status, next.status * 100, 'scripted'), next.headers);
        if (!json || typeof json.topic !== 'string') return answer(400, error(400, 40009, 'invalid request: topic invalid'));
        if (protectedTopics.has(json.topic) && !(bearer !== null && tokens.get(bearer)!.has(json.topic))) return answer(403, error(403, 40301, 'forbidden'));
        const message = {
          id: `m${messages.length + 1}`,
          time: Math.floor(Date.now() / 1000),
          event: 'message',
          topic: json.topic,
          title: json.title,
          message: json.message ?? 'triggered',
          priority: json.priority,
          tags: json.tags,
          click: json.click,
          actions: Array.isArray(json.actions) ? json.actions.map((a: any, i: number) => ({ id: `a${i}`, ...a })) : undefined,
        };
        messages.push(message);
        arrivals.arrived();
        return answer(200, message);
      }
      return answer(404, error(404, 40401, 'page not found'));
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    requests,
    messages,
    tokens,
    protectedTopics,
    script: (...answers) => scripted.push(...answers),
    waitForMessages: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    async tap(message, label, base) {
      const action = (message.actions ?? []).find((a: any) => a.label === label);
      if (!action) throw new Error(`no action labelled ${label}: ${JSON.stringify(message.actions)}`);
      if (action.action !== 'http') throw new Error(`${label} is a ${action.action} action`);
      const url = new URL(action.url);
      return fetch(base + url.pathname + url.search, { method: action.method ?? 'POST', headers: action.headers ?? {}, ...(action.body ? { body: action.body } : {}) });
    },
    close: loopback.close,
  };
}
