import { useRef } from 'react';
import { ApiError } from '@/lib/api-client';

/** 128 random bits as hex: crypto.randomUUID() exists only on HTTPS and localhost, and Chime also runs on plain HTTP in a LAN. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of a request that creates (docs/api.md "Retrying a create safely"). Sending the
 * same request again after a failure (no answer, a timeout, a 503) reuses its key, so the server
 * creates it at most once even if the first attempt went through; a different request, or the
 * same one after it succeeded, gets a new key.
 */
export function useIdempotencyKey() {
  const last = useRef<{ request: string; key: string } | null>(null);
  return {
    /** The key for this request (`request`: what identifies it, e.g. its JSON body). */
    keyFor(request: string): string {
      if (last.current?.request !== request) last.current = { request, key: newKey() };
      return last.current.key;
    },
    /** The request succeeded, or the server refused its key: the next one gets a new key. */
    settle(error?: unknown): void {
      if (error === undefined || (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_REUSED')) last.current = null;
    },
  };
}
