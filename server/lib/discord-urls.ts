export const DISCORD_OAUTH_SCOPES = ['identify', 'email', 'guilds', 'guilds.members.read'] as const;

/** The dashboard route Discord sends the browser back to (SPEC.md section 2). */
export const discordRedirectUri = (publicUrl: string) => `${publicUrl}/auth/callback/discord`;
