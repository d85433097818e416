/**
 * Slow clients cannot hold connections: a request whose body (or headers) does not arrive within
 * the request time-out is answered 408 and its socket closed, and a socket on which nothing at all
 * arrives is closed after the connection time-out. The bounds are options of buildApp so this test
 * can use short ones; production uses 30 s and 120 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, DEFAULT_CONNECTION_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';

const REQUEST_TIMEOUT_MS = 400;
const CONNECTION_TIMEOUT_MS = 800;
/** How long past its bound a cut-off may come (the checking interval, a loaded machine). */
const SLACK_MS = 1500;

interface Outcome {
  closed: boolean;
  elapsedMs: number;
  response: string;
}

/** Opens a socket, runs `drive` on it, and reports when (and whether) the server closed it. */
function rawExchange(port: number, drive: (socket: net.Socket) => void, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const started = Date.now();
    let response = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closed, elapsedMs: Date.now() - started, response });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => drive(socket));
  });
}

const head = (contentLength: number) =>
  `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe('request and connection time-outs', () => {
  let app: FastifyInstance;
  let port: number;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'chime-timeout-'));
    const config = loadConfig({ PORT: '0', DATABASE_URL: path.join(dir, 'chime.db') }, { serveWeb: false, schedulerEnabled: false });
    app = await buildApp({ config, logger: false, requestTimeoutMs: REQUEST_TIMEOUT_MS, connectionTimeoutMs: CONNECTION_TIMEOUT_MS });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('cuts off a short body announced with a large Content-Length, with a 408 in the API shape', async () => {
    const outcome = await rawExchange(port, (s) => s.write(`${head(60_000)}{"email":"a@example.com",`), REQUEST_TIMEOUT_MS + SLACK_MS + 3000);
    expect(outcome.closed, `still open after ${outcome.elapsedMs} ms`).toBe(true);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(outcome.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
    const body = outcome.response.slice(outcome.response.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ error: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT' });
  });

  it('cuts off a body that trickles in a byte at a time (the bound is on the whole request)', async () => {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await rawExchange(
      port,
      (s) => {
        s.write(head(10_000));
        timer = setInterval(() => s.writable && s.write(' '), 50);
      },
      REQUEST_TIMEOUT_MS + SLACK_MS + 3000,
    );
    clearInterval(timer);
    expect(outcome.closed, `still open after ${outcome.elapsedMs} ms`).toBe(true);
    expect(outcome.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off headers that never end', async () => {
    const outcome = await rawExchange(port, (s) => s.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '), REQUEST_TIMEOUT_MS + SLACK_MS + 3000);
    expect(outcome.closed, `still open after ${outcome.elapsedMs} ms`).toBe(true);
    expect(outcome.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
  });

  it('closes a connection on which nothing arrives', async () => {
    const outcome = await rawExchange(port, () => {}, CONNECTION_TIMEOUT_MS + SLACK_MS + 3000);
    expect(outcome.closed, `still open after ${outcome.elapsedMs} ms`).toBe(true);
    expect(outcome.elapsedMs).toBeLessThan(CONNECTION_TIMEOUT_MS + SLACK_MS);
  });

  it('answers a complete request normally, also over a kept-alive socket', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });
    const outcome = await rawExchange(
      port,
      (s) => {
        s.write(`${head(Buffer.byteLength(body))}${body}`);
        setTimeout(() => s.write(`${head(Buffer.byteLength(body)).replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n')}${body}`), REQUEST_TIMEOUT_MS + 200);
      },
      REQUEST_TIMEOUT_MS + SLACK_MS + 3000,
    );
    // Two answers: the idle time between the requests did not count against the second one.
    expect(outcome.response.match(/HTTP\/1\.1 401 /g)).toHaveLength(2);
    expect(outcome.response).not.toMatch(/ 408 /);
  });

  it('production defaults bound the request at 30 s and an idle socket at 120 s', async () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(DEFAULT_CONNECTION_TIMEOUT_MS).toBe(120_000);
    const config = loadConfig({ PORT: '0', DATABASE_URL: path.join(dir, 'defaults.db') }, { serveWeb: false, schedulerEnabled: false });
    const plain = await buildApp({ config, logger: false });
    try {
      expect(plain.server.requestTimeout).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
      expect(plain.server.headersTimeout).toBeLessThanOrEqual(DEFAULT_REQUEST_TIMEOUT_MS);
      expect(plain.server.timeout).toBe(DEFAULT_CONNECTION_TIMEOUT_MS);
    } finally {
      await plain.close();
    }
  });
});
