/**
 * Vitest setup file: the test servers hash passwords with Argon2id at its smallest cost instead of
 * production's (server/lib/password.ts: 19 MiB, 2 passes). Hundreds of sign-ups per run would
 * otherwise spend minutes of CPU on hashing alone. It is still a real Argon2id hash, checked by the
 * real verify (the cost is read from the hash itself); production code is not touched.
 */
import { vi } from 'vitest';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...argon2,
    hash: (password: string | Uint8Array, options?: Parameters<typeof argon2.hash>[1]) =>
      argon2.hash(password, { ...options, memoryCost: 8, timeCost: 1, parallelism: 1 }),
  };
});
