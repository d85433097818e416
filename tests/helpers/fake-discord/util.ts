import { randomBytes } from 'node:crypto';

export const DISCORD_EPOCH = 1420070400000n;

let increment = 0n;

/** A real-looking snowflake (18-19 digits) for "now", unique within the process. */
export function snowflake(at: number = Date.now()): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(at) - DISCORD_EPOCH) << 22n) | (1n << 17n) | (1n << 12n) | increment).toString();
}

export function snowflakeTimestamp(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{17,20}$/.test(value);
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[bytes[i]! % ALNUM.length];
  return out;
}

export function randomHex(length: number): string {
  return randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
}

/** Bot token shaped like Discord's: base64(user id).base64(timestamp).hmac */
export function makeBotToken(userId: string): string {
  const id = Buffer.from(userId).toString('base64url');
  const ts = Buffer.from(randomBytes(4)).toString('base64url');
  return `${id}.${ts}.${randomBytes(28).toString('base64url')}`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `predicate` until it returns a truthy value (which is returned) or the
 * timeout elapses (rejects with a descriptive error).
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  timeoutMs = 2000,
  description = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const suffix = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`waitFor: timed out after ${timeoutMs} ms waiting for ${description}${suffix}`);
    }
    await sleep(10);
  }
}
