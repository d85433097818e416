import { randomFillSync, randomUUID } from 'node:crypto';

let lastMs = 0;
let seq = 0;
// One getrandom call per 512 ids instead of one per id (bursts create 100,000s of them).
const pool = Buffer.alloc(8 * 512);
let poolOffset = pool.length;

function random8(): Buffer {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const out = pool.subarray(poolOffset, poolOffset + 8);
  poolOffset += 8;
  return out;
}

/**
 * UUIDv7 (RFC 9562), strictly increasing within the process: the outbox pages through deliveries
 * by (next_attempt_at, id), so a row inserted in the same millisecond as the page cursor must
 * still sort after it. 12 bits of sequence per millisecond; on overflow the clock part steps on.
 */
export function uuidv7(nowMs = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    seq = 0;
  } else {
    seq += 1;
    if (seq > 0xfff) {
      lastMs += 1;
      seq = 0;
    }
  }
  const rand = random8();
  const ms = lastMs.toString(16).padStart(12, '0');
  const a = (0x7000 | seq).toString(16);
  const b = ((rand[0]! & 0x3f) | 0x80).toString(16).padStart(2, '0') + rand[1]!.toString(16).padStart(2, '0');
  const c = rand.subarray(2).toString('hex');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-${a}-${b}-${c}`;
}

/** Standard Webhooks message id; also the Discord nonce. Random: it must not be guessable. */
export const newMessageId = (): string => `msg_${randomUUID()}`;
