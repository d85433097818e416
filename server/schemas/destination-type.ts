import { Type } from '@sinclair/typebox';
import type { DestinationType } from '../db/database.ts';

/**
 * A delivery's destination type in an answer, as a string enum: clients get the union (the
 * dashboard's types are derived from these schemas, docs/architecture.md) and the OpenAPI document
 * lists the values. A subscriber's deliveries ("Remind me too") show in the reminder's history too.
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

export const DestinationTypeOut = Type.Unsafe<DestinationType>({ type: 'string', enum: [...DESTINATION_TYPES] });
