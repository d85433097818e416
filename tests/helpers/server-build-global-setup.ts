/**
 * Vitest globalSetup of the `server` and `postgres` projects: compiles the server to dist/ when it
 * is older than the sources, once before any test, so that tests which run Chime as an
 * administrator does (`npm start`, `npm run admin`: tests/helpers/chime-process.ts) find it built
 * and never compile it several at a time.
 */
// @ts-expect-error plain JS build script without types
import { buildServerIfStale } from '../../scripts/build-server.mjs';

export default async function setup(): Promise<void> {
  await (buildServerIfStale as () => Promise<void>)();
}
