import { useEffect, useRef, useState } from 'react';
import { checkDestination, type DestinationInput } from '@/lib/api/reminders';

export type CheckState =
  | { status: 'checking' }
  | { status: 'ok' }
  /** The server's precise reason: `code` (DISCORD_CANNOT_POST, WEBHOOK_TARGET_FORBIDDEN...) with the names it quotes. */
  | { status: 'failed'; code: string | null; error: string | null; params: Record<string, string> | null }
  /** The check itself could not run (network): says nothing about the destination, blocks nothing. */
  | { status: 'unknown' };

type Checkable = Pick<DestinationInput, 'id' | 'type' | 'metadata'>;

/** Same type and metadata, same answer: the key of a check. */
export const checkKey = (d: Pick<DestinationInput, 'type' | 'metadata'>) => `${d.type}:${JSON.stringify(d.metadata)}`;

export interface DestinationChecks {
  /** The check of this destination; undefined for one that is not checked (already saved). */
  stateOf(d: Checkable): CheckState | undefined;
  /** A destination in the list failed its check: Next/Create wait until it is fixed or removed. */
  blocked: boolean;
}

/**
 * Runs POST /api/destinations/check once for each destination added to the list (whatever its
 * type: the server runs that module's preflight), so a problem shows next to it right away
 * instead of at Create. Saved destinations (with an id) were checked when they were saved.
 */
export function useDestinationChecks(destinations: readonly Checkable[]): DestinationChecks {
  const [states, setStates] = useState<ReadonlyMap<string, CheckState>>(new Map());
  const started = useRef(new Set<string>());
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  useEffect(() => {
    // A removed destination is checked again if it comes back (its permissions may be fixed by then).
    const current = new Set(destinations.map(checkKey));
    for (const key of [...started.current]) if (!current.has(key)) started.current.delete(key);
    for (const d of destinations) {
      const key = checkKey(d);
      if (d.id || started.current.has(key)) continue;
      started.current.add(key);
      const set = (state: CheckState) => {
        if (live.current) setStates((prev) => new Map(prev).set(key, state));
      };
      set({ status: 'checking' });
      checkDestination(d).then(
        (r) => set(r.ok ? { status: 'ok' } : { status: 'failed', code: r.code ?? null, error: r.error ?? null, params: r.params ?? null }),
        (err: unknown) => {
          console.error('Destination check failed', err);
          // Try again when it is added again.
          started.current.delete(key);
          set({ status: 'unknown' });
        },
      );
    }
  }, [destinations]);

  const stateOf = (d: Checkable) => (d.id ? undefined : states.get(checkKey(d)));
  return { stateOf, blocked: destinations.some((d) => stateOf(d)?.status === 'failed') };
}
