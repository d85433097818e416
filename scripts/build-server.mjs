// Compiles the server (and each migration) to plain ESM JavaScript in dist/, so production runs on
// plain node: no TypeScript loader in memory (about 40 MB less RSS) and faster start.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Lists, in the output directory, the chunk files the last build wrote. */
const OUTPUTS_FILE = '.chunks-of-last-build.json';

/**
 * Packages stay in node_modules, loaded from there at run time, except Kysely: its ES build is 260
 * small modules, and loading them one by one took a quarter of a second of every start, every
 * delivery thread and every `npm run admin` command; bundled, it is one chunk.
 */
const BUNDLED_PACKAGES = new Set(['kysely']);
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.has(packageName(args.path)) ? undefined : { path: args.path, external: true }));
  },
};

export async function buildServer({ outdir = path.join(root, 'dist') } = {}) {
  // Loaded here: `npm start` and `npm run admin` import this file to check the build is current.
  const { build } = await import('esbuild');
  // splitting keeps lazily imported parts (the Discord bot) and their packages out of memory until used.
  // The scheduler's worker thread is an entry of its own (dist/scheduler-worker.mjs, found by
  // server/scheduler/worker/host.ts), sharing chunks with the server; so is `npm run admin`
  // (dist/admin.mjs, scripts/admin.mjs) and `npm run migrate` (dist/migrate.mjs, scripts/migrate.mjs),
  // and so is each migration (dist/migrations/, which
  // server/db/migrate.ts reads): all of them share the one copy of Kysely.
  const migrations = readdirSync(`${root}/migrations`).filter((f) => f.endsWith('.ts'));
  const result = await build({
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalPackages],
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    metafile: true,
    entryPoints: {
      main: 'main.ts',
      'scheduler-worker': 'server/scheduler/worker/entry.ts',
      admin: 'server/admin-cli.ts',
      migrate: 'server/db/migrate-cli.ts',
      ...Object.fromEntries(migrations.map((f) => [`migrations/${f.replace(/\.ts$/, '')}`, `migrations/${f}`])),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
  });
  pruneChunks(outdir, Object.keys(result.metafile.outputs));
}

/** The newest modification time of a file under `dir` (0 when it does not exist). */
export function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Runs one of the build's entries (dist/<entry>.mjs) in this process, compiling it first when stale. */
export async function runCompiled(entry) {
  await buildServerIfStale();
  await import(pathToFileURL(path.join(root, 'dist', `${entry}.mjs`)).href);
}

/** Builds dist/ when it is missing or older than the sources; says so on stderr (stdout may be JSON). */
export async function buildServerIfStale() {
  const at = (...p) => path.join(root, ...p);
  const entries = ['main.mjs', 'scheduler-worker.mjs', 'admin.mjs', 'migrate.mjs'].map((name) => at('dist', name));
  const sourcesChanged = Math.max(statSync(at('main.ts')).mtimeMs, newestMtime(at('server')), newestMtime(at('bot')), newestMtime(at('migrations')));
  if (entries.every((file) => existsSync(file) && statSync(file).mtimeMs >= sourcesChanged)) return;
  console.warn('Compiling the server...');
  await buildServer();
}

/**
 * Chunk names carry their content's hash, so every build that changes the code adds files. Those
 * of this build and of the one before it stay: a server still running from the previous build
 * loads some of its chunks only when first used (the bot, email), after main.mjs was replaced.
 * Older ones go. Without a record of the previous build (the first build with this code), nothing
 * is removed.
 */
function pruneChunks(outdir, outputs) {
  const chunksDir = path.join(outdir, 'chunks');
  const current = outputs.map((file) => path.relative(chunksDir, path.resolve(root, file))).filter((name) => !name.startsWith('..'));
  const recordFile = path.join(outdir, OUTPUTS_FILE);
  const previous = readRecord(recordFile);
  if (previous && existsSync(chunksDir)) {
    const keep = new Set([...current, ...previous]);
    for (const name of readdirSync(chunksDir)) if (!keep.has(name)) rmSync(path.join(chunksDir, name), { force: true });
  }
  writeFileSync(recordFile, `${JSON.stringify(current)}\n`);
}

function readRecord(file) {
  try {
    const names = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(names) && names.every((n) => typeof n === 'string') ? names : null;
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer();
}
