/**
 * Vitest setup file: the test servers hash passwords with Argon2id at its smallest cost instead of
 * production's (server/lib/password.ts: 19 MiB, 2 passes). Hundreds of sign-ups per run would
 * otherwise spend minutes of CPU on hashing alone. It is still a real Argon2id hash, checked by the
 * real verify (the cost is read from the hash itself); production code is not touched.
 *
 * It also counts Argon2 checks (`argon2Checks()`), for the tests that hold how many a request
 * costs. The count lives on globalThis: test files share one module cache per worker (vitest.config.ts),
 * so the mocked module may come from an earlier file's run of this setup.
 */
import { vi } from 'vitest';

// Hoisted with vi.mock below, so the mock factory and argon2Checks() read one counter.
const argon2Counts = vi.hoisted(() => () => ((globalThis as Record<string, unknown>).__chimeArgon2Checks ??= { verifies: 0 }) as { verifies: number });

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
  const counts = argon2Counts();
  return {
    ...argon2,
    hash: (password: string | Uint8Array, options?: Parameters<typeof argon2.hash>[1]) =>
      argon2.hash(password, { ...options, memoryCost: 8, timeCost: 1, parallelism: 1 }),
    verify: (...args: Parameters<typeof argon2.verify>) => {
      counts.verifies += 1;
      return argon2.verify(...args);
    },
  };
});

/** Argon2 verifications so far in this process. */
export function argon2Checks(): number {
  return argon2Counts().verifies;
}
