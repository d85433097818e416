import type { DestinationType } from '../db/database.ts';
import { DESTINATION_MODULES } from '../destinations/registry.ts';
import type { SenderDeps } from '../destinations/types.ts';
import type { DestinationSender, SenderTuning } from './types.ts';

/**
 * Every destination module's sender, built from `deps` and tuned with `tuning`. A module without a
 * sender here (Discord without settings) is left out: its deliveries fail with
 * DESTINATION_NOT_CONFIGURED.
 */
export function createModuleSenders(deps: SenderDeps, tuning: SenderTuning): Map<DestinationType, DestinationSender> {
  const senders = new Map<DestinationType, DestinationSender>();
  for (const module of DESTINATION_MODULES) {
    const sender = module.createSender?.(deps) ?? null;
    if (!sender) continue;
    sender.tune?.(tuning);
    senders.set(module.type, sender);
  }
  return senders;
}
