import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = {
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // Test files run in child processes (forks), two at a time.
  pool: 'forks' as const,
  // A worker keeps its modules from one test file to the next instead of importing the server
  // afresh per file: the server and PostgreSQL projects take a third less CPU (388 s instead of
  // about 650 s on this machine). Each file still starts its own servers, databases and browser and
  // closes them in afterAll. Module mocks do not mix with this: the only one, Argon2's, is the
  // setup file's (tests/helpers/fast-password-hashing.ts).
  isolate: false,
  // Cheaper password hashing (tests/helpers/fast-password-hashing.ts).
  setupFiles: ['tests/helpers/fast-password-hashing.ts'],
};

const BROWSER_DIR = 'tests/browser';
/** Compiles dist/ for the tests that start Chime as `npm start` and `npm run admin` do. */
const SERVER_BUILD = 'tests/helpers/server-build-global-setup.ts';

/** Every test file outside the browser tests, with its text. */
function apiTestFiles(dir = 'tests'): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return file === BROWSER_DIR || entry.name === 'node_modules' ? [] : apiTestFiles(file);
    return entry.name.endsWith('.test.ts') ? [{ file, text: readFileSync(file, 'utf8') }] : [];
  });
}

/**
 * Which database a test file runs on is read from the file itself:
 * - a file that starts a test server or opens the test database (it imports tests/helpers/server.ts,
 *   tests/helpers/test-database.ts or the bot harness) runs on SQLite and again on PostgreSQL;
 * - a first-line comment `// Runs on SQLite only: <why>` or `// Runs on PostgreSQL only: <why>`
 *   keeps it to one of them;
 * - any other file (unit tests) runs once, in `server`.
 */
const USES_TEST_DATABASE = /from '[^']*(helpers\/server|helpers\/test-database|bot-harness)\.ts'/;
const SQLITE_ONLY = /^\/\/ Runs on SQLite only\b/;
const POSTGRES_ONLY = /^\/\/ Runs on PostgreSQL only\b/;

const files = apiTestFiles();
const SQLITE_SUITES = files.filter(({ text }) => !POSTGRES_ONLY.test(text)).map(({ file }) => file);
const POSTGRES_SUITES = files.filter(({ text }) => POSTGRES_ONLY.test(text) || (USES_TEST_DATABASE.test(text) && !SQLITE_ONLY.test(text))).map(({ file }) => file);

/**
 * The run has two phases (sequence.groupOrder). Vitest runs projects one after the other, so it
 * would anyway start with the browser files and end with the API files; the phases only let each
 * have its own number of workers:
 * - browser files first, two at a time: each keeps a core busy with Chromium and its own server;
 * - then the API files (server and postgres projects), four at a time: they wait on sockets,
 *   timers and PostgreSQL for part of their time, so with three the cores were still idle 11 % of
 *   that phase (4 %, and the phase 350 s -> 302 s, with four; docs/architecture.md "Tests").
 */
const BROWSER_PHASE = { sequence: { groupOrder: 0 }, maxWorkers: 2 };
const API_PHASE = { sequence: { groupOrder: 1 }, maxWorkers: 4 };

export default defineConfig({
  test: {
    maxWorkers: 2,
    reporters: process.env.CI ? ['default', 'json', './tests/helpers/timeout-margin-reporter.ts'] : ['default', './tests/helpers/timeout-margin-reporter.ts'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
    projects: [
      {
        // The dashboard's pure modules are unit-tested here; they import with web/'s `@/` alias.
        resolve: { alias: { '@': path.resolve(import.meta.dirname, 'web/src') } },
        test: { ...shared, ...API_PHASE, name: 'server', include: SQLITE_SUITES, globalSetup: [SERVER_BUILD] },
      },
      {
        test: {
          ...shared,
          ...API_PHASE,
          name: 'postgres',
          // The API, scheduler and bot suites again, each test server on a throwaway PostgreSQL
          // database (tests/helpers/test-database.ts) of one PostgreSQL server for the run:
          // TEST_POSTGRES_URL's, or one started for the run (tests/helpers/postgres-global-setup.ts).
          include: POSTGRES_SUITES,
          env: { CHIME_TEST_DB: 'postgres' },
          globalSetup: ['tests/helpers/postgres-global-setup.ts', SERVER_BUILD],
        },
      },
      {
        test: {
          ...shared,
          ...BROWSER_PHASE,
          name: 'browser',
          include: [`${BROWSER_DIR}/**/*.test.ts`],
          // A browser test drives Chromium, a server and the dashboard on the same two cores: on
          // this machine one takes 3-15 s; 60 s leaves room for a loaded run (README "Tests").
          testTimeout: 60_000,
          // Builds web/dist when it is older than the dashboard sources (browser tests serve it).
          globalSetup: [`${BROWSER_DIR}/global-setup.ts`],
        },
      },
    ],
  },
});
