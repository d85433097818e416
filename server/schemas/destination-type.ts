import { Type } from '@sinclair/typebox';
import type { DestinationType, OwnerDestinationType } from '../db/database.ts';
import { DESTINATION_MODULES } from '../destinations/registry.ts';

/**
 * Destination types in answers, as string enums of the destination modules' types: clients get
 * the union (the dashboard's types are derived from these schemas, docs/architecture.md) and the
 * OpenAPI document lists the values. Bodies keep plain strings: the destinations' validation
 * refuses an unknown type with its own code and message (server/destinations/validate.ts).
 */

/** Any delivery's: a subscriber's deliveries ("Remind me too") show in the reminder's history too. */
export const DestinationTypeOut = Type.Unsafe<DestinationType>({ type: 'string', enum: DESTINATION_MODULES.map((m) => m.type) });

/** A reminder's own destinations: never an internal type (a subscriber's, which only counts). */
export const OwnerDestinationTypeOut = Type.Unsafe<OwnerDestinationType>({ type: 'string', enum: DESTINATION_MODULES.filter((m) => !m.internal).map((m) => m.type) });
