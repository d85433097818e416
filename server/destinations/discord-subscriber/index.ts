import type { DestinationModule } from '../types.ts';
import { discordSubscriberSenderOf } from './create-sender.ts';

/**
 * Someone who pressed "Remind me too" under a channel reminder (server/reminders/subscriptions.ts):
 * each occurrence goes to their Discord DMs with a "Stop reminding me" button. The row is made and
 * removed with its subscription, never by the reminder's owner; the delivery's account is the
 * subscriber's (the claimer reads it from the subscription), so the DM goes to them, in their language.
 */
export const discordSubscriberDestination: DestinationModule = {
  type: 'discord_subscriber',
  cap: 0,
  noun: 'subscriber',
  requiresDiscordIdentity: true,
  internal: true,
  parseMetadata: () => ({}),
  label: () => 'Discord DM of a subscriber ("Remind me too")',
  createSender: discordSubscriberSenderOf,
};
