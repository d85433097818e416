import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Strict CSP for the dashboard: only our own scripts and styles; images may come from Discord's
 * CDN (guild icons, avatars). No inline scripts, so an injected message cannot run code.
 */
export default fp(
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https://cdn.discordapp.com'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // The dashboard opens Discord's invite page in a new tab; that must keep working.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      strictTransportSecurity: app.config.publicUrl.startsWith('https://'),
    });
  },
  { name: 'security-headers', dependencies: ['database'] },
);
