import type { DestinationModule } from '../types.ts';
import { discordDmSenderOf } from './create-sender.ts';

/** The owner's Discord direct messages: no metadata, the account's Discord identity says where. */
export const discordDmDestination: DestinationModule = {
  type: 'discord_dm',
  cap: 1,
  noun: 'direct message',
  requiresDiscordIdentity: true,
  parseMetadata: () => ({}),
  label: () => 'Discord direct message',
  createSender: discordDmSenderOf,
};
