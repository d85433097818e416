import type { DestinationType } from '../db/database.ts';
import { BoundedMemo } from '../lib/bounded-memo.ts';
import { parseJsonObject } from '../lib/json-object.ts';
import type { DestinationSender } from './types.ts';

/** What the send pump needs of a destination: its parsed metadata, concurrency key and metrics label. */
export interface DestinationInfo {
  metadata: Record<string, unknown>;
  key: string;
  platform: string;
}

/**
 * Parsed metadata, concurrency key and metrics label of destinations, cached by their metadata
 * text: a burst to one webhook parses one URL, not 100,000. Metadata objects are shared (frozen):
 * senders must not mutate them.
 */
export class DestinationInfoCache {
  // Cleared whole when full: a burst touches few destinations.
  private readonly entries = new BoundedMemo<DestinationInfo>(5000);

  constructor(private readonly senderFor: (type: DestinationType) => DestinationSender | undefined) {}

  /** Senders changed: keys and labels are computed again. */
  clear(): void {
    this.entries.clear();
  }

  of(type: DestinationType, destinationId: string, metadataText: string, secret: string | null): DestinationInfo {
    return this.entries.get(`${type}\u0000${metadataText}`, () => this.build(type, destinationId, metadataText, secret));
  }

  private build(type: DestinationType, destinationId: string, metadataText: string, secret: string | null): DestinationInfo {
    const metadata = Object.freeze(parseJsonObject(metadataText));
    const sender = this.senderFor(type);
    let key = `missing:${type}`;
    let platform: string = type;
    if (sender) {
      const destination = { id: destinationId, type, metadata, secret };
      try {
        key = sender.concurrencyKey(destination);
        platform = sender.metricsLabel?.(destination) ?? platform;
      } catch {
        key = `invalid:${type}`;
      }
    }
    return { metadata, key, platform };
  }
}
