import type { DestinationType } from '../db/database.ts';
import type { DestinationSender } from './types.ts';
import { parseJsonObject } from '../lib/json-object.ts';

/** What the send pump needs of a destination: its parsed metadata, concurrency key and metrics label. */
export interface DestinationInfo {
  metadata: Record<string, unknown>;
  key: string;
  platform: string;
}

/** A cache bounded this way is cleared whole when full: a burst touches few destinations. */
const MAX_ENTRIES = 5000;

/**
 * Parsed metadata, concurrency key and metrics label of destinations, cached by their metadata
 * text: a burst to one webhook parses one URL, not 100,000. Metadata objects are shared (frozen):
 * senders must not mutate them.
 */
export class DestinationInfoCache {
  private readonly entries = new Map<string, DestinationInfo>();

  constructor(private readonly senderFor: (type: DestinationType) => DestinationSender | undefined) {}

  /** Senders changed: keys and labels are computed again. */
  clear(): void {
    this.entries.clear();
  }

  of(type: DestinationType, destinationId: string, metadataText: string, secret: string | null): DestinationInfo {
    const cacheKey = `${type}\u0000${metadataText}`;
    let info = this.entries.get(cacheKey);
    if (info) return info;
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
    info = { metadata, key, platform };
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(cacheKey, info);
    return info;
  }
}
