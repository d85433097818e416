/**
 * Chime as an administrator runs it: `npm start` (scripts/start.mjs) and `npm run admin`
 * (scripts/admin.mjs), the compiled server and command line, in processes of their own with only
 * the environment given.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { REPO_ROOT as ROOT } from './repo-root.ts';

export { ROOT };

/** What every spawned process gets: nothing from the test runner's own settings. */
function baseEnv(dir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: dir, HOST: '127.0.0.1', PORT: '0', SERVE_WEB: 'false', TZ: 'UTC' };
}

export interface ChimeProcess {
  child: ChildProcess;
  /** Everything written so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves once `pattern` appears in the output; rejects when the process exits first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  /** http://127.0.0.1:<port>, from Fastify's "Server listening at" line. */
  url(): Promise<string>;
  /** SIGTERM to the whole process group; resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts the server. `tty: true` runs it under `script` (util-linux), which gives it a
 * pseudo-terminal as stdout, as a shell would.
 */
export function startChime(dir: string, env: Record<string, string>, options: { tty?: boolean } = {}): ChimeProcess {
  // What `npm start` runs: the compiled server (tests/helpers/server-build-global-setup.ts built it).
  const command = [process.execPath, 'scripts/start.mjs'];
  const child = options.tty
    ? spawn('script', ['-q', '-e', '-c', command.map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: ROOT, env: { ...baseEnv(dir), ...env }, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(command[0]!, command.slice(1), { cwd: ROOT, env: { ...baseEnv(dir), ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const l of listeners) l();
  });
  const waitFor = (pattern: RegExp, ms = 90_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (match) return finish(() => resolve(match));
        if (done) return finish(() => reject(new Error(`exited before ${pattern}:\n${text}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${ms} ms:\n${text}`))), ms);
      const finish = (then: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        then();
      };
      listeners.add(check);
      check();
    });
  return {
    child,
    output: () => text,
    waitFor,
    url: async () => (await waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!,
    stop: async () => {
      if (!done) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          /* gone already */
        }
      }
      return exited;
    },
    exited,
  };
}

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- <args>` with `env` only. */
export function runAdmin(dir: string, env: Record<string, string>, args: string[]): Promise<AdminRun> {
  const child = spawn(process.execPath, ['scripts/admin.mjs', ...args], { cwd: ROOT, env: { ...baseEnv(dir), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
