import { createContext } from 'react';

/**
 * What "Connect your Discord account" does where a form can keep its draft over the round trip
 * (the wizard); elsewhere the hint links to the account page.
 */
export const ConnectDiscordContext = createContext<(() => void) | null>(null);
