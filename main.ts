/**
 * The process entry point and composition root (`npm start` compiles it to dist/main.mjs, `npm run
 * dev` runs it): it builds the server (server/app.ts) and hands it the Discord gateway bot
 * (bot/plugin.ts), so the server itself never imports the bot (docs/architecture.md "Layers").
 *
 * Only the settings are imported before the delivery thread starts: the server's modules load
 * after, on this core, while the thread loads its own on the other (thread-entry.ts).
 */
import { ConfigError, loadConfig, loadDotEnv, runsDeliveryThreads } from './server/config.ts';
import { unsupportedNodeReason } from './server/lib/node-support.ts';
import { startThreadEarly } from './server/scheduler/worker/thread-entry.ts';

const unsupported = unsupportedNodeReason(process.version);
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}

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

if (runsDeliveryThreads(config)) startThreadEarly();

const [{ default: botPlugin }, { buildApp }, { DatabaseBusyError }, { readableLogStream, resolveLogFormat, startSummary }] = await Promise.all([
  import('./bot/plugin.ts'),
  import('./server/app.ts'),
  import('./server/db/database-busy.ts'),
  import('./server/logging.ts'),
]);

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  const logStream = resolveLogFormat(config.logFormat, process.stdout.isTTY === true) === 'pretty' ? await readableLogStream() : undefined;
  app = await buildApp({ config, botPlugin, logStream });
} catch (err) {
  // PostgreSQL down or out of reach, or a SQLite file another process keeps locked: the operator
  // needs one line that says so (a process manager starts Chime again), not a stack trace.
  if (err instanceof DatabaseBusyError) {
    console.error(`Chime could not start: ${err.message}. Check DATABASE_URL and that the database is running.`);
    process.exit(1);
  }
  throw err;
}

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
  app.log.info(startSummary(config), `Chime is running at ${config.publicUrl}`);
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
