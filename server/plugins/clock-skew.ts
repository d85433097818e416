import fp from 'fastify-plugin';
import { CHECK_EVERY_MS, isClockOff, measureClockSkew } from '../lib/clock-skew.ts';
import { readPostgresClock } from '../repositories/database-clock.ts';

/**
 * On PostgreSQL, warns when this machine's clock is off the database server's (server/lib/clock-skew.ts).
 * SQLite has one machine and one clock. A failed reading is not worth a line: the database being
 * out is logged where it matters.
 */
export default fp(
  async (app) => {
    if (app.dbDialect !== 'postgres') return;
    const check = async () => {
      try {
        const reading = await measureClockSkew(() => readPostgresClock(app.db));
        if (isClockOff(reading)) {
          app.log.warn(
            reading,
            `this machine's clock is ${Math.abs(reading.skewMs)} ms ${reading.skewMs > 0 ? 'ahead of' : 'behind'} the database server's: reminders fire off by as much; keep both in sync (NTP)`,
          );
        }
      } catch {
        /* out of reach: said elsewhere */
      }
    };
    app.addHook('onReady', async () => {
      void check();
    });
    const timer = setInterval(() => void check(), CHECK_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'clock-skew', dependencies: ['database'] },
);
