/**
 * What every fake service of the tests does the same way: listen on 127.0.0.1 and close with its
 * sockets, and let a test wait until a list of what it received holds `count` entries.
 */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Listens on a free loopback port; `close` ends kept-alive sockets too, so it never hangs. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `received` grows as the fake answers; `arrived()` after each push wakes the tests waiting on it. */
export function countWaiter<T>(received: T[], what: string) {
  const waiters: Array<() => boolean> = [];
  return {
    arrived(): void {
      for (const w of [...waiters]) w();
    },
    waitFor(count: number, timeoutMs = 10_000): Promise<T[]> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return false;
          clearTimeout(timer);
          waiters.splice(waiters.indexOf(check), 1);
          resolve(received);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(check), 1);
          reject(new Error(`${what}: got ${received.length} of ${count}`));
        }, timeoutMs);
        waiters.push(check);
        check();
      });
    },
  };
}
