/**
 * The bot's way to the account of the Discord user behind an interaction. The rules (created on
 * first use, the same account as a later Discord sign-in) live in
 * server/accounts/discord-accounts.ts, shared with the dashboard's Discord sign-in.
 */
export { type DiscordUserLike, ensureAccountForDiscordUser, findAccountForDiscordUser } from '../server/accounts/discord-accounts.ts';
