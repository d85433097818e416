import { Type } from '@sinclair/typebox';
import type { DestinationType, OwnerDestinationType } from '../db/database.ts';

/**
 * Destination types in answers, as string enums: clients get the union (the dashboard's types are
 * derived from these schemas, docs/architecture.md) and the OpenAPI document lists the values.
 * Bodies keep plain strings: the destinations' validation refuses an unknown type with its own code
 * and message (server/destinations/validate.ts).
 */
const DESTINATION_TYPES = [
  'discord_dm',
  'discord_channel',
  'webhook',
  'email',
  'ntfy',
  'gotify',
  'pushover',
  'matrix',
  'telegram',
  'web_push',
  'discord_subscriber',
] as const satisfies readonly DestinationType[];

// Fails to compile when a type is added to the database's union and not here.
const everyType: [Exclude<DestinationType, (typeof DESTINATION_TYPES)[number]>] extends [never] ? true : never = true;
void everyType;

/** Any delivery's: a subscriber's deliveries ("Remind me too") show in the reminder's history too. */
export const DestinationTypeOut = Type.Unsafe<DestinationType>({ type: 'string', enum: [...DESTINATION_TYPES] });

/** A reminder's own destinations (never a subscriber's: those only count). */
export const OwnerDestinationTypeOut = Type.Unsafe<OwnerDestinationType>({ type: 'string', enum: DESTINATION_TYPES.filter((t) => t !== 'discord_subscriber') });
