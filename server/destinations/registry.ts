import type { DestinationType } from '../db/database.ts';
import { discordChannelDestination } from './discord-channel/index.ts';
import { discordDmDestination } from './discord-dm/index.ts';
import { emailDestination } from './email/index.ts';
import type { DestinationModule } from './types.ts';
import { webhookDestination } from './webhook/index.ts';
import { ntfyDestination } from './ntfy/index.ts';
import { gotifyDestination } from './gotify/index.ts';
import { pushoverDestination } from './pushover/index.ts';
import { matrixDestination } from './matrix/index.ts';
import { telegramDestination } from './telegram/index.ts';
import { webPushDestination } from './web-push/index.ts';
import { discordSubscriberDestination } from './discord-subscriber/index.ts';

/** Every destination type Chime can deliver to: one module each. */
export const DESTINATION_MODULES: readonly DestinationModule[] = [
  discordDmDestination,
  discordChannelDestination,
  webhookDestination,
  emailDestination,
  ntfyDestination,
  gotifyDestination,
  pushoverDestination,
  matrixDestination,
  telegramDestination,
  webPushDestination,
  discordSubscriberDestination,
];

const byType = new Map<string, DestinationModule>(DESTINATION_MODULES.map((m) => [m.type, m]));

export const DESTINATION_TYPES = DESTINATION_MODULES.map((m) => m.type) as readonly DestinationType[];

/** The module of a type, or undefined for a type this server does not know. */
export function destinationModule(type: string): DestinationModule | undefined {
  return byType.get(type);
}
