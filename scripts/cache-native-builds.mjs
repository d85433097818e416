// Keeps better-sqlite3's native build in npm's prebuild cache (~/.npm/_prebuilds), where its
// installer (prebuild-install) looks before downloading a prebuilt binary. On a machine that cannot
// reach GitHub's release downloads, every `npm install` in a fresh clone otherwise compiles SQLite
// from source, about 70 s of a 2-core machine; with the binary cached, later installs unpack it,
// check that it loads, and compile again only if it does not. The cache is keyed, as a download
// would be, by the package's version, Node's ABI, the platform, libc and the CPU architecture.
// Usage (after npm install, from the repository root): node scripts/cache-native-builds.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const pkg = require(path.join(pkgDir, 'package.json'));
const binary = path.join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
// prebuild-install as better-sqlite3 resolves it, so the cache path is the one its install reads.
const fromPkg = (id) => require(require.resolve(id, { paths: [pkgDir] }));
const util = fromPkg('prebuild-install/util');
const cached = util.cachedPrebuild(util.getDownloadUrl({ ...fromPkg('prebuild-install/rc')(pkg), pkg }));

if (existsSync(cached)) {
  console.warn(`better-sqlite3 ${pkg.version}: native build already cached`);
} else if (existsSync(binary)) {
  // Only a binary that loads is worth keeping.
  require(binary);
  mkdirSync(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  execFileSync('tar', ['-czf', partial, '-C', pkgDir, 'build/Release/better_sqlite3.node']);
  renameSync(partial, cached);
  console.warn(`better-sqlite3 ${pkg.version}: native build cached at ${cached}`);
}
