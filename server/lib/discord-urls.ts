export const DISCORD_OAUTH_SCOPES = ['identify', 'email', 'guilds', 'guilds.members.read'] as const;

/** The dashboard route Discord sends the browser back to (the dashboard's /auth/callback/discord page, docs/discord.md "Creating the Discord application"). */
export const discordRedirectUri = (publicUrl: string) => `${publicUrl}/auth/callback/discord`;
