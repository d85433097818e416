import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let built: Promise<void> | null = null;

/** Builds the bundle once per benchmark process: a restart in the middle of a run is only a restart. */
function buildOnce(): Promise<void> {
  built ??= (async () => {
    // @ts-expect-error plain JS build script without types
    const { buildServer } = await import('../../scripts/build-server.mjs');
    await buildServer();
  })();
  return built;
}

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** When the process was spawned (after the build): what a restart's timings count from. */
  spawnedAt: number;
  rssMb(): number;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the real server as its own process, exactly as `npm start` runs it (the compiled bundle on
 * plain node with the same V8 flags), so its RSS is the product's RSS.
 */
export async function startServerProcess(env: Record<string, string>, port: number, onLine?: (line: string) => void): Promise<ServerProcess> {
  await buildOnce();
  const flags = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=2 --max-old-space-size=256').split(' ').filter(Boolean);
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [...flags, 'dist/main.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', onLine ? 'pipe' : 'inherit', 'inherit'],
  });
  if (onLine) {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    child,
    spawnedAt,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        // A process killed by a signal keeps exitCode null: its signalCode says it is gone.
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
