import { describe, expect, it } from 'vitest';
import { discordChannelDestination } from '../../../../../server/destinations/discord-channel/index.ts';
import { parseDestinations } from '../../../../../server/destinations/validate.ts';

const ctx = { hasDiscordIdentity: true, allowPrivateWebhookTargets: false };
const channel = { guild_id: '300000000000000001', channel_id: '300000000000000011' };

describe('a channel destination\'s "Remind me too"', () => {
  it('is stored only when true; anything but a boolean is refused', () => {
    expect(discordChannelDestination.parseMetadata({ ...channel, remind_me_too: true }, 'd', ctx)).toMatchObject({ remind_me_too: true });
    expect(discordChannelDestination.parseMetadata({ ...channel, remind_me_too: false }, 'd', ctx)).not.toHaveProperty('remind_me_too');
    expect(() => discordChannelDestination.parseMetadata({ ...channel, remind_me_too: 'yes' }, 'd', ctx)).toThrow(/remind_me_too must be true or false/);
  });

  it('a subscriber\'s destination is the server\'s to make: a client sending the type is refused', () => {
    expect(() => parseDestinations([{ type: 'discord_subscriber', metadata: {} }], ctx)).toThrow(expect.objectContaining({ code: 'INVALID_DESTINATION' }));
  });
});
