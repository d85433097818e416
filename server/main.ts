import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { buildApp } from './app.ts';

loadDotEnv();

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// A fresh clone has no built dashboard: build it once so `npm install && npm start` just works.
const webIndex = fileURLToPath(new URL('../web/dist/index.html', import.meta.url));
if (config.serveWeb && !existsSync(webIndex)) {
  console.warn('Building the dashboard (first start)...');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) });
  if (result.status !== 0) console.error('Dashboard build failed; the API still runs.');
}

const app = await buildApp({ config });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Bounded: a stuck connection must not keep the process alive forever.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, discord: config.discord ? 'configured' : `not configured (missing ${config.discordMissing.join(', ')})` },
    'Chime is running',
  );
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
