import { hash, verify } from '@node-rs/argon2';

// Argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane); the library's default algorithm is Argon2id.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 8;
/** Argon2 accepts long inputs, but hashing megabytes per request would be a cheap DoS. */
export const MAX_PASSWORD_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against a real hash when the account does not exist keeps "wrong email" and "wrong
// password" equally slow, so response time does not reveal which emails are registered.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('chime-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
