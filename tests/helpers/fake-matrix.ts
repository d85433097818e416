/**
 * A fake Matrix homeserver on 127.0.0.1, written from the Matrix Client-Server API specification
 * (spec.matrix.org, v1.x, "Client-Server API"): only what a bot posting reminders uses.
 *
 * - Authentication ("Client authentication"): `Authorization: Bearer <access_token>`. No token on
 *   an endpoint that needs one is 401 `M_MISSING_TOKEN`; an unknown or revoked one 401
 *   `M_UNKNOWN_TOKEN`. Errors are `{ errcode, error }` ("Standard error response").
 * - `GET /_matrix/client/v3/account/whoami` ("Current account information"): 200 `{ user_id }`.
 * - `GET /_matrix/client/v3/sync?filter=...&timeout=0` ("Syncing", "Filtering"): only what a
 *   filter of `room.rooms` asks: `rooms.invite[roomId].invite_state.events` for each listed room
 *   the user is invited to, `rooms.join[roomId]` for those it is in.
 * - `GET /_matrix/client/v3/directory/room/{roomAlias}` ("Room aliases"; requires no
 *   authentication): 200 `{ room_id, servers }`, or 404 `M_NOT_FOUND`.
 * - `POST /_matrix/client/v3/join/{roomIdOrAlias}` ("Joining rooms"): 200 `{ room_id }`; accepts a
 *   pending invite; 403 `M_FORBIDDEN` when the room is invite-only and the user is neither
 *   invited nor joined (or is banned); 404 `M_NOT_FOUND` for an alias or room the server cannot
 *   find. Joining a room one is already in succeeds.
 * - `PUT /_matrix/client/v3/rooms/{roomId}/send/{eventType}/{txnId}` ("Sending events to a
 *   room"): 200 `{ event_id }`; 403 `M_FORBIDDEN` when the sender is not in the room. "Transaction
 *   identifiers": the same txnId from the same access token is the same request: the first
 *   event's id is answered again and no second event is sent.
 * - Rate limiting ("Rate limiting"): 429 `M_LIMIT_EXCEEDED` with `retry_after_ms`.
 * - An unknown endpoint: 404 `M_UNRECOGNIZED`.
 *
 * `script()` answers the next sends with chosen errors; `storeThenFail` keeps the event but
 * answers an error, like an answer lost on the way back.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { countWaiter, listenOnLoopback } from './loopback-fake.ts';

export interface MatrixRequest {
  method: string;
  /** The raw path, percent-encoding kept. */
  path: string;
  headers: IncomingHttpHeaders;
  json: any;
}

export interface MatrixEvent {
  roomId: string;
  eventId: string;
  type: string;
  txnId: string;
  sender: string;
  content: any;
}

export interface FakeRoom {
  id: string;
  /** Invite-only rooms need an invite to join (the default). */
  public?: boolean;
  invited: Set<string>;
  joined: Set<string>;
  banned: Set<string>;
}

export interface MatrixScripted {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Keep the event (and its transaction) before answering the error. */
  storeThenFail?: boolean;
}

export interface FakeMatrix {
  url: string;
  serverName: string;
  /** access token -> user id. */
  tokens: Map<string, string>;
  rooms: Map<string, FakeRoom>;
  aliases: Map<string, string>;
  requests: MatrixRequest[];
  events: MatrixEvent[];
  /** A room (invite-only unless `public`), its aliases, and who is invited. */
  addRoom(id: string, options?: { aliases?: string[]; invite?: string[]; public?: boolean }): FakeRoom;
  script(...answers: MatrixScripted[]): void;
  waitForEvents(count: number, timeoutMs?: number): Promise<MatrixEvent[]>;
  close(): Promise<void>;
}

const PREFIX = '/_matrix/client/v3';

export async function startFakeMatrix(serverName = 'chime.test'): Promise<FakeMatrix> {
  const tokens = new Map<string, string>();
  const rooms = new Map<string, FakeRoom>();
  const aliases = new Map<string, string>();
  const requests: MatrixRequest[] = [];
  const events: MatrixEvent[] = [];
  const scripted: MatrixScripted[] = [];
  /** `${user}\n${txnId}` -> event id (transactions are scoped to the access token's device; one device per user here). */
  const transactions = new Map<string, string>();
  const arrivals = countWaiter(events, 'fake Matrix events');
  let nextEvent = 1;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: any = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = undefined;
      }
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, headers: req.headers, json });
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, errcode: string, message: string, extra: Record<string, unknown> = {}) => answer(status, { errcode, error: message, ...extra });
      const parts = path.startsWith(PREFIX) ? path.slice(PREFIX.length).split('/').slice(1).map((p) => decodeURIComponent(p)) : [];

      const authenticated = (): string | null => {
        const header = req.headers.authorization;
        const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
        if (!token) {
          error(401, 'M_MISSING_TOKEN', 'Missing access token');
          return null;
        }
        const user = tokens.get(token);
        if (!user) {
          error(401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.', { soft_logout: false });
          return null;
        }
        return user;
      };

      // GET /account/whoami
      if (req.method === 'GET' && parts.length === 2 && parts[0] === 'account' && parts[1] === 'whoami') {
        const user = authenticated();
        if (!user) return;
        return answer(200, { user_id: user, is_guest: false });
      }
      // GET /sync (invites and joins of the rooms the filter lists)
      if (req.method === 'GET' && parts.length === 1 && parts[0] === 'sync') {
        const user = authenticated();
        if (!user) return;
        const query = new URL(req.url ?? '', 'http://x').searchParams;
        let filter: any = {};
        try {
          filter = JSON.parse(query.get('filter') ?? '{}');
        } catch {
          return error(400, 'M_INVALID_PARAM', 'filter is not JSON');
        }
        const listed: string[] | null = Array.isArray(filter?.room?.rooms) ? filter.room.rooms : null;
        const wanted = [...rooms.values()].filter((r) => !listed || listed.includes(r.id));
        const invite = Object.fromEntries(
          wanted.filter((r) => r.invited.has(user)).map((r) => [r.id, { invite_state: { events: [{ type: 'm.room.member', state_key: user, sender: '@owner:' + serverName, content: { membership: 'invite' } }] } }]),
        );
        const join = Object.fromEntries(wanted.filter((r) => r.joined.has(user)).map((r) => [r.id, { timeline: { events: [], limited: false }, state: { events: [] } }]));
        return answer(200, { next_batch: 's1', rooms: { invite, join, leave: {} } });
      }
      // GET /directory/room/{roomAlias}
      if (req.method === 'GET' && parts.length === 3 && parts[0] === 'directory' && parts[1] === 'room') {
        const roomId = aliases.get(parts[2]!);
        if (!roomId) return error(404, 'M_NOT_FOUND', `Room alias ${parts[2]} not found`);
        return answer(200, { room_id: roomId, servers: [serverName] });
      }
      // POST /join/{roomIdOrAlias}
      if (req.method === 'POST' && parts.length === 2 && parts[0] === 'join') {
        const user = authenticated();
        if (!user) return;
        if (json === undefined || (json !== null && typeof json !== 'object')) return error(400, 'M_NOT_JSON', 'Content not JSON.');
        const target = parts[1]!;
        const roomId = target.startsWith('#') ? aliases.get(target) : target;
        const room = roomId ? rooms.get(roomId) : undefined;
        if (!room) return error(404, 'M_NOT_FOUND', target.startsWith('#') ? `Room alias ${target} not found` : 'No known servers');
        if (room.banned.has(user)) return error(403, 'M_FORBIDDEN', 'You are banned from this room');
        if (!room.public && !room.invited.has(user) && !room.joined.has(user)) return error(403, 'M_FORBIDDEN', 'You are not invited to this room.');
        room.invited.delete(user);
        room.joined.add(user);
        return answer(200, { room_id: room.id });
      }
      // PUT /rooms/{roomId}/send/{eventType}/{txnId}
      if (req.method === 'PUT' && parts.length === 5 && parts[0] === 'rooms' && parts[2] === 'send') {
        const user = authenticated();
        if (!user) return;
        const [, roomId, , type, txnId] = parts as [string, string, string, string, string];
        const key = `${user}\n${txnId}`;
        const known = transactions.get(key);
        if (known) return answer(200, { event_id: known });
        const next = scripted.shift();
        if (next && !next.storeThenFail) return answer(next.status, next.body ?? { errcode: 'M_UNKNOWN', error: 'scripted' }, next.headers);
        if (!json || typeof json !== 'object' || Array.isArray(json)) return error(400, 'M_NOT_JSON', 'Content not JSON.');
        const room = rooms.get(roomId);
        if (!room || !room.joined.has(user)) return error(403, 'M_FORBIDDEN', `User ${user} not in room ${roomId}`);
        if (type === 'm.room.message' && (typeof json.msgtype !== 'string' || typeof json.body !== 'string')) return error(400, 'M_BAD_JSON', 'msgtype and body are required');
        const eventId = `$event${nextEvent++}`;
        transactions.set(key, eventId);
        events.push({ roomId, eventId, type, txnId, sender: user, content: json });
        arrivals.arrived();
        if (next) return answer(next.status, next.body ?? { errcode: 'M_UNKNOWN', error: 'scripted' }, next.headers);
        return answer(200, { event_id: eventId });
      }
      return error(404, 'M_UNRECOGNIZED', 'Unrecognized request');
    });
  });
  const loopback = await listenOnLoopback(server);
  return {
    url: loopback.url,
    serverName,
    tokens,
    rooms,
    aliases,
    requests,
    events,
    addRoom(id, options = {}) {
      const room: FakeRoom = { id, public: options.public ?? false, invited: new Set(options.invite ?? []), joined: new Set(), banned: new Set() };
      rooms.set(id, room);
      for (const alias of options.aliases ?? []) aliases.set(alias, id);
      return room;
    },
    script: (...answers) => scripted.push(...answers),
    waitForEvents: (count, timeoutMs) => arrivals.waitFor(count, timeoutMs),
    close: loopback.close,
  };
}
