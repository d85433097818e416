import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import type { DestinationInput } from '@/lib/api/reminders';
import { useDeliveryText } from '@/lib/delivery-text';

type Named = Pick<DestinationInput, 'type' | 'metadata'> & { label?: string };

/**
 * A create or save refused because of one destination (the error body's `destination` index),
 * in words: "Webhook 2: This webhook address is not allowed...", "#general: The bot can't send
 * messages in #general...". Null for any other error (the caller shows its usual text).
 */
export function useDestinationError(): (err: unknown, destinations: readonly Named[]) => string | null {
  const { t } = useTranslation('delivery');
  const text = useDeliveryText();

  function nameOf(list: readonly Named[], index: number, params: Record<string, unknown>): string {
    const d = list[index]!;
    if (d.type === 'webhook') {
      // "Webhook 2": the second webhook of the list, as the user sees them.
      const n = list.slice(0, index + 1).filter((x) => x.type === 'webhook').length;
      return t('labels.webhookN', { n });
    }
    if (d.type === 'discord_channel') {
      const channel = typeof params.channel === 'string' ? params.channel : d.metadata.channel_name;
      if (channel) return `#${channel}`;
    }
    return d.label ?? text.destinationLabel(d.type, d.metadata);
  }

  return (err, destinations) => {
    if (!(err instanceof ApiError)) return null;
    const index = err.details.destination;
    if (typeof index !== 'number' || !destinations[index]) return null;
    const params = err.details.params && typeof err.details.params === 'object' ? (err.details.params as Record<string, unknown>) : {};
    const d = destinations[index];
    return t('check.named', { destination: nameOf(destinations, index, params), message: text.errorText(err, { metadata: d.metadata }) });
  };
}
