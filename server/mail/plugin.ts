import fp from 'fastify-plugin';
import { createMailService, type MailService } from './service.ts';
import { createMailer } from './transport.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** null when SMTP_URL / MAIL_FROM are not set: email is off. */
    mail: MailService | null;
  }
}

/** app.mail: the SMTP transport from config.mail, closed with the app. */
export default fp(
  async (app) => {
    const config = app.config.mail;
    if (!config) {
      app.decorate('mail', null);
      return;
    }
    const mailer = createMailer(config);
    app.decorate('mail', createMailService(app.db, config, mailer));
    // The host only: SMTP_URL holds the password.
    app.log.info({ smtpHost: safeHost(config.smtpUrl) }, 'email enabled');
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail', dependencies: ['database'] },
);

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '?';
  }
}
