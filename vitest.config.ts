import { configDefaults, defineConfig } from 'vitest/config';

const shared = {
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // Each file gets its own process: servers, SQLite files and timers never leak between files.
  pool: 'forks' as const,
};

/** Test files that run against a real server and database, so they run on PostgreSQL as well. */
const POSTGRES_SUITES = [
  'tests/api-*.test.ts',
  'tests/bot-commands.test.ts',
  'tests/bot-delivery.test.ts',
  'tests/bot-gateway-lease.test.ts',
  'tests/bot-lifecycle.test.ts',
  'tests/calendar-feed.test.ts',
  'tests/discord-*.test.ts',
  'tests/email-*.test.ts',
  'tests/login-throttle.test.ts',
  'tests/metrics.test.ts',
  'tests/prepared-query.test.ts',
  'tests/reminder-*.test.ts',
  'tests/reminders-*.test.ts',
  'tests/roles.test.ts',
  'tests/scheduler.test.ts',
  'tests/scheduler-instances.test.ts',
  'tests/scheduler-recovery.test.ts',
  'tests/scheduler-worker.test.ts',
  'tests/shared-state.test.ts',
  'tests/snooze.test.ts',
  'tests/webhook-delivery.test.ts',
  'tests/webhook-routes.test.ts',
  'tests/postgres-*.test.ts',
];

export default defineConfig({
  test: {
    // Two cores: more workers only make the timing-sensitive scheduler tests flaky.
    maxWorkers: 2,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
    projects: [
      { test: { ...shared, name: 'server', include: ['tests/*.test.ts'], exclude: [...configDefaults.exclude, 'tests/postgres-*.test.ts'] } },
      {
        test: {
          ...shared,
          name: 'postgres',
          // The API, scheduler and bot suites again, each test server on a throwaway PostgreSQL
          // database (tests/helpers/test-database.ts; TEST_POSTGRES_URL says where). Pure unit tests
          // and SQLite-only ones (busy handling, the SQLite schema) run once, in `server`.
          include: POSTGRES_SUITES,
          env: { CHIME_TEST_DB: 'postgres' },
        },
      },
      {
        test: {
          ...shared,
          name: 'browser',
          include: ['tests/e2e/**/*.test.ts'],
          // Builds web/dist when it is older than the dashboard sources (browser tests serve it).
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
