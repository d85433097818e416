import fp from 'fastify-plugin';

// Placeholder: Discord OAuth, guild discovery routes and destination checks land here.
export default fp(async () => {}, { name: 'discord', dependencies: ['database', 'auth'] });
