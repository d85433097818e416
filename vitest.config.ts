import { defineConfig } from 'vitest/config';

const shared = {
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // Each file gets its own process: servers, SQLite files and timers never leak between files.
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // Two cores: more workers only make the timing-sensitive scheduler tests flaky.
    maxWorkers: 2,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
    projects: [
      { test: { ...shared, name: 'server', include: ['tests/*.test.ts'] } },
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
