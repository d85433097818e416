import { useRef, useState } from 'react';
import { checkDestination, type DestinationMetadata } from '@/lib/api/reminders';

export type UrlCheck = { status: 'idle' | 'checking' } | { status: 'failed'; code: string | null; error: string | null };

/**
 * The webhook form checks its URL when the field loses focus (POST /api/destinations/check: the
 * syntax and the network policy), so a refused address shows before Add. Only a failure is shown;
 * an answer for a URL the user has since changed (or added) is dropped.
 */
export function useWebhookUrlCheck() {
  const [state, setState] = useState<UrlCheck>({ status: 'idle' });
  const current = useRef('');

  function check(metadata: DestinationMetadata) {
    const url = metadata.url ?? '';
    current.current = url;
    if (!url) return setState({ status: 'idle' });
    setState({ status: 'checking' });
    checkDestination({ type: 'webhook', metadata }).then(
      (r) => {
        if (current.current !== url) return;
        setState(r.ok ? { status: 'idle' } : { status: 'failed', code: r.code ?? null, error: r.error ?? null });
      },
      () => current.current === url && setState({ status: 'idle' }),
    );
  }

  function reset() {
    current.current = '';
    setState({ status: 'idle' });
  }

  return { state, check, reset };
}
