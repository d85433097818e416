import fp from 'fastify-plugin';
import { registerTelegramWebhook, TELEGRAM_WEBHOOK_PATH, webhookReachable } from '../destinations/telegram/bot.ts';

/**
 * Registers Chime's webhook with Telegram when the server is ready (docs/notifications.md
 * "Telegram"): `setWebhook` to <PUBLIC_URL>/telegram/webhook with the stored secret token and only
 * message and callback_query updates. In the background: Telegram being slow or down must not
 * delay the start; the outcome is logged (never the token). Every web instance does it: the call
 * is idempotent.
 */
export default fp(
  async (app) => {
    const telegram = app.config.telegram;
    if (!telegram) return;
    let registering: Promise<void> | null = null;
    app.addHook('onReady', async () => {
      if (!webhookReachable(app.config)) {
        app.log.warn({ public_url: app.config.publicUrl }, `Telegram webhook not registered: PUBLIC_URL must be an https address Telegram can reach (${TELEGRAM_WEBHOOK_PATH})`);
        return;
      }
      registering = registerTelegramWebhook(app).then(
        (result) => {
          if (result.ok) app.log.info('Telegram webhook registered');
          else app.log.warn({ code: result.code, status: result.httpStatus }, `Telegram webhook not registered: ${result.error}`);
        },
        (err: unknown) => app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'Telegram webhook not registered'),
      );
    });
    app.addHook('onClose', async () => {
      await registering;
    });
  },
  { name: 'telegram', dependencies: ['database'] },
);
