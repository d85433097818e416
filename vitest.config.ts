import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file gets its own process: servers, SQLite files and timers never leak between files.
    pool: 'forks',
    // Two cores: more workers only make the timing-sensitive scheduler tests flaky.
    maxWorkers: 2,
    // Builds web/dist when it is older than the dashboard sources (browser tests serve it).
    globalSetup: ['tests/e2e/global-setup.ts'],
  },
});
