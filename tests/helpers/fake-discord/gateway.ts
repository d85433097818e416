import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { randomHex } from './util.ts';

/** Gateway opcodes. */
export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
  RequestSoundboardSounds: 31,
} as const;

/** Gateway intents used for event filtering. */
export const Intents = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
} as const;

export interface GatewayPayload {
  op: number;
  d?: any;
  s?: number | null;
  t?: string | null;
}

export interface ReceivedGatewayPayload {
  sessionId: string | null;
  op: number;
  /** Payload data; the IDENTIFY / RESUME token is redacted. */
  d: any;
  at: number;
}

interface Session {
  id: string;
  ws: WebSocket | null;
  seq: number;
  intents: number;
  shard: [number, number];
  /** Sent dispatches kept for RESUME replay. */
  buffer: GatewayPayload[];
  resumable: boolean;
}

interface Connection {
  ws: WebSocket;
  session: Session | null;
  query: URLSearchParams;
}

export interface GatewayHost {
  botToken: string;
  heartbeatInterval: number;
  /** ws:// origin for resume_gateway_url. */
  gatewayUrl(): string;
  /** READY `d` without session_id / resume_gateway_url / shard. */
  readyPayload(): Record<string, any>;
  /** Full GUILD_CREATE payloads for every guild the bot is in. */
  guildCreatePayloads(): Record<string, any>[];
  /** GUILD_MEMBERS_CHUNK payloads for op 8. */
  memberChunk(guildId: string, userIds: string[] | null, query: string | null, limit: number): Record<string, any>[];
}

const BUFFER_LIMIT = 1000;

function intentForEvent(t: string, d: any): number | null {
  if (t.startsWith('GUILD_MEMBER_') && t !== 'GUILD_MEMBERS_CHUNK') return Intents.GuildMembers;
  if (t === 'MESSAGE_CREATE' || t === 'MESSAGE_UPDATE' || t === 'MESSAGE_DELETE') {
    return d?.guild_id ? Intents.GuildMessages : Intents.DirectMessages;
  }
  if (
    t.startsWith('GUILD_') ||
    t.startsWith('CHANNEL_') ||
    t.startsWith('THREAD_') ||
    t.startsWith('STAGE_INSTANCE_')
  ) {
    // GUILD_CREATE / GUILD_DELETE are always sent to Guilds-intent sessions.
    return Intents.Guilds;
  }
  return null;
}

export class FakeGateway {
  readonly wss = new WebSocketServer({ noServer: true });
  readonly received: ReceivedGatewayPayload[] = [];
  private readonly connections = new Set<Connection>();
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly host: GatewayHost) {
    this.wss.on('connection', (ws: WebSocket, req: IncomingMessage) => this.onConnection(ws, req));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  }

  /** IDENTIFYs accepted since the start: sessions started, whether still open or not. */
  identified = 0;

  /** Number of open, identified (or resumed) gateway connections. */
  get readyConnections(): number {
    let n = 0;
    for (const c of this.connections) if (c.session && c.ws.readyState === WebSocket.OPEN) n++;
    return n;
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const query = new URL(req.url ?? '/', 'ws://localhost').searchParams;
    const conn: Connection = { ws, session: null, query };
    this.connections.add(conn);
    ws.on('close', (code) => {
      this.connections.delete(conn);
      if (conn.session) {
        if (conn.session.ws === ws) conn.session.ws = null;
        // A normal close (1000/1001) by the client invalidates the session, like Discord.
        if (code === 1000 || code === 1001) conn.session.resumable = false;
      }
    });
    ws.on('error', () => {});
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(conn, data, isBinary));

    const encoding = query.get('encoding') ?? 'json';
    if (encoding !== 'json') {
      // Only JSON is implemented (discord.js uses JSON unless erlpack-based libs ask for etf).
      ws.close(4002, 'Only encoding=json is supported by the fake gateway');
      return;
    }
    // `compress=zlib-stream` is ignored: we always answer with plain JSON text frames,
    // which @discordjs/ws parses directly (it only inflates binary frames).
    this.send(conn, { op: Op.Hello, d: { heartbeat_interval: this.host.heartbeatInterval, _trace: ['["fake-discord-gateway",{"micros":0}]'] } });
  }

  private send(conn: Connection, payload: GatewayPayload): void {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(payload));
  }

  private sendDispatch(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const payload: GatewayPayload = { op: Op.Dispatch, t, s: session.seq, d };
    session.buffer.push(payload);
    if (session.buffer.length > BUFFER_LIMIT) session.buffer.shift();
    if (session.ws && session.ws.readyState === WebSocket.OPEN) session.ws.send(JSON.stringify(payload));
  }

  private onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    let payload: GatewayPayload;
    try {
      if (isBinary) throw new Error('binary');
      payload = JSON.parse(data.toString()) as GatewayPayload;
      if (typeof payload !== 'object' || payload === null || typeof payload.op !== 'number') throw new Error('shape');
    } catch {
      conn.ws.close(4002, 'Decode error');
      return;
    }

    const redacted =
      payload.d && typeof payload.d === 'object' && 'token' in payload.d ? { ...payload.d, token: '[redacted]' } : payload.d;
    this.received.push({ sessionId: conn.session?.id ?? null, op: payload.op, d: redacted, at: Date.now() });

    switch (payload.op) {
      case Op.Heartbeat:
        this.send(conn, { op: Op.HeartbeatAck });
        return;
      case Op.Identify:
        this.identify(conn, payload.d);
        return;
      case Op.Resume:
        this.resume(conn, payload.d);
        return;
      case Op.PresenceUpdate:
      case Op.VoiceStateUpdate:
      case Op.RequestSoundboardSounds:
        if (!conn.session) conn.ws.close(4003, 'Not authenticated');
        return;
      case Op.RequestGuildMembers: {
        if (!conn.session) {
          conn.ws.close(4003, 'Not authenticated');
          return;
        }
        const d = payload.d ?? {};
        const guildIds: string[] = Array.isArray(d.guild_id) ? d.guild_id : [d.guild_id];
        for (const gid of guildIds) {
          const chunks = this.host.memberChunk(
            String(gid),
            Array.isArray(d.user_ids) ? d.user_ids : d.user_ids ? [d.user_ids] : null,
            typeof d.query === 'string' ? d.query : null,
            Number(d.limit ?? 0),
          );
          for (const chunk of chunks) this.sendDispatch(conn.session, 'GUILD_MEMBERS_CHUNK', { ...chunk, nonce: d.nonce });
        }
        return;
      }
      default:
        conn.ws.close(4001, 'Unknown opcode');
    }
  }

  private tokenMatches(token: unknown): boolean {
    return typeof token === 'string' && token.replace(/^Bot\s+/i, '') === this.host.botToken;
  }

  private identify(conn: Connection, d: any): void {
    if (conn.session) {
      conn.ws.close(4005, 'Already authenticated');
      return;
    }
    if (!d || !this.tokenMatches(d.token)) {
      conn.ws.close(4004, 'Authentication failed');
      return;
    }
    if (typeof d.intents !== 'number') {
      conn.ws.close(4013, 'Invalid intent(s)');
      return;
    }
    const shard: [number, number] = Array.isArray(d.shard) ? [Number(d.shard[0]), Number(d.shard[1])] : [0, 1];
    if (!(shard[1] >= 1 && shard[0] >= 0 && shard[0] < shard[1])) {
      conn.ws.close(4010, 'Invalid shard');
      return;
    }
    const session: Session = { id: randomHex(32), ws: conn.ws, seq: 0, intents: d.intents, shard, buffer: [], resumable: true };
    this.sessions.set(session.id, session);
    conn.session = session;
    this.identified += 1;

    const guilds = this.host.guildCreatePayloads().filter((g) => Number(BigInt(g.id) >> 22n) % shard[1] === shard[0] || shard[1] === 1);
    this.sendDispatch(session, 'READY', {
      ...this.host.readyPayload(),
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.host.gatewayUrl(),
      shard,
    });
    if (session.intents & Intents.Guilds) {
      for (const guild of guilds) this.sendDispatch(session, 'GUILD_CREATE', guild);
    }
  }

  private resume(conn: Connection, d: any): void {
    const session = d && typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    if (!session || !session.resumable || !this.tokenMatches(d.token)) {
      this.send(conn, { op: Op.InvalidSession, d: false });
      return;
    }
    if (session.ws && session.ws !== conn.ws && session.ws.readyState === WebSocket.OPEN) session.ws.close(4000, 'Session resumed elsewhere');
    session.ws = conn.ws;
    conn.session = session;
    const since = Number(d.seq ?? 0);
    for (const payload of session.buffer) {
      if ((payload.s ?? 0) > since) this.send(conn, payload);
    }
    session.seq += 1;
    const resumed: GatewayPayload = { op: Op.Dispatch, t: 'RESUMED', s: session.seq, d: { _trace: ['["fake-discord-gateway",{"micros":0}]'] } };
    session.buffer.push(resumed);
    this.send(conn, resumed);
  }

  /**
   * Sends a dispatch to every live session whose intents cover the event and whose shard owns it,
   * as Discord does: a guild's events go to shard (guild_id >> 22) % shard_count, everything else
   * (DMs) to shard 0. Returns the number of sessions it was sent to.
   */
  dispatch(t: string, d: unknown): number {
    const intent = intentForEvent(t, d);
    const body = d && typeof d === 'object' ? (d as { guild_id?: unknown; id?: unknown }) : {};
    // GUILD_CREATE/UPDATE/DELETE carry the guild's own id; the others a guild_id when in a guild.
    const rawGuild = typeof body.guild_id === 'string' ? body.guild_id : /^GUILD_(CREATE|UPDATE|DELETE)$/.test(t) && typeof body.id === 'string' ? body.id : null;
    const guildId = rawGuild !== null && /^\d+$/.test(rawGuild) ? rawGuild : null;
    let sent = 0;
    for (const session of this.sessions.values()) {
      if (!session.ws || session.ws.readyState !== WebSocket.OPEN) continue;
      if (intent !== null && !(session.intents & intent)) continue;
      const [shardId, shardCount] = session.shard;
      const owner = guildId === null ? 0 : Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
      if (owner !== shardId) continue;
      this.sendDispatch(session, t, d);
      sent++;
    }
    return sent;
  }

  /** Asks connected clients to reconnect (op 7); they will RESUME. */
  requestReconnect(): void {
    for (const conn of this.connections) this.send(conn, { op: Op.Reconnect, d: null });
  }

  /** Sends op 9 INVALID_SESSION to all connected clients. */
  invalidateSessions(resumable = false): void {
    for (const conn of this.connections) {
      if (!resumable && conn.session) conn.session.resumable = false;
      this.send(conn, { op: Op.InvalidSession, d: resumable });
    }
  }

  /** Server-side close of every gateway connection with the given close code (4000 = resumable unknown error). */
  disconnectAll(code = 4000, reason = 'Fake gateway disconnect'): void {
    for (const conn of this.connections) conn.ws.close(code, reason);
  }

  async close(): Promise<void> {
    for (const conn of this.connections) conn.ws.terminate();
    this.connections.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
