import fp from 'fastify-plugin';

// Placeholder: the discord.js gateway bot, slash commands and Discord delivery land here.
export default fp(async () => {}, { name: 'discord-bot', dependencies: ['database', 'scheduler', 'discord'] });
