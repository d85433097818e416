import { useRef, useState } from 'react';
import { checkDestination, type DestinationMetadata } from '@/lib/api/reminders';

export type UrlCheck = { status: 'idle' | 'checking' } | { status: 'failed'; code: string | null; error: string | null; params: Record<string, string> | null };

/**
 * The webhook form checks its URL, body template and headers when one of them loses focus (POST
 * /api/destinations/check: the syntax, the network policy, the template's placeholders), so a
 * refusal shows before Add. Only a failure is shown; an answer for fields the user has since
 * changed (or added) is dropped.
 */
export function useWebhookUrlCheck() {
  const [state, setState] = useState<UrlCheck>({ status: 'idle' });
  const current = useRef('');

  /**
   * Resolves false when the server refuses the URL (the reason is then in `state`); true when it
   * accepts it, or could not be asked (the save checks again).
   */
  function check(metadata: DestinationMetadata): Promise<boolean> {
    const url = metadata.url ?? '';
    const key = JSON.stringify(metadata);
    current.current = key;
    if (!url) {
      setState({ status: 'idle' });
      return Promise.resolve(true);
    }
    setState({ status: 'checking' });
    return checkDestination({ type: 'webhook', metadata }).then(
      (r) => {
        if (current.current === key) setState(r.ok ? { status: 'idle' } : { status: 'failed', code: r.code ?? null, error: r.error ?? null, params: r.params ?? null });
        return r.ok;
      },
      () => {
        if (current.current === key) setState({ status: 'idle' });
        return true;
      },
    );
  }

  function reset() {
    current.current = '';
    setState({ status: 'idle' });
  }

  return { state, check, reset };
}
