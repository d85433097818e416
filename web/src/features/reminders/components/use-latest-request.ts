import { useCallback, useRef, useState } from 'react';

/**
 * Runs the server picker's requests with one loading flag and one error: only the latest request
 * counts, so answers of a previous step or a closed dialog never land in the current one.
 */
export function useLatestRequest() {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  /**
   * Starts a request; `onDone` and `onFail` run only if no newer request (or cancel) came since.
   * Resolves to the answer, or null when it failed or was dropped.
   */
  const run = useCallback(async <T>(load: () => Promise<T>, onDone: (result: T) => void, onFail: (err: unknown) => void): Promise<T | null> => {
    const gen = ++generation.current;
    setLoading(true);
    setError(null);
    try {
      const result = await load();
      if (gen !== generation.current) return null;
      onDone(result);
      return result;
    } catch (err) {
      if (gen === generation.current) onFail(err);
      return null;
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }, []);

  /** Drops the answer of the request under way, and its loading flag and error. */
  const cancel = useCallback(() => {
    generation.current += 1;
    setLoading(false);
    setError(null);
  }, []);

  return { loading, error, setError, run, cancel };
}
