import fp from 'fastify-plugin';
import type { DestinationType } from '../db/database.ts';
import type { DestinationSender } from './types.ts';

export interface SchedulerHandle {
  /** Re-arm the timer after reminders changed. */
  wake(): void;
  registerSender(type: DestinationType, sender: DestinationSender): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: SchedulerHandle;
  }
}

// Placeholder until the scheduler lands: the API must be able to call wake() already.
export default fp(
  async (app) => {
    const senders = new Map<DestinationType, DestinationSender>();
    app.decorate('scheduler', {
      wake() {},
      registerSender(type, sender) {
        senders.set(type, sender);
      },
    } satisfies SchedulerHandle);
  },
  { name: 'scheduler', dependencies: ['database'] },
);
