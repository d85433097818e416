import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface SchedulerMetrics {
  registry: Registry;
  deliveries: Counter<'platform' | 'outcome'>;
  retries: Counter;
  lateness: Histogram;
}

/**
 * One registry per app instance: tests run several apps in one process, and the global registry
 * would refuse the second registration of the same metric name.
 */
export function createSchedulerMetrics(countDue: () => Promise<number>): SchedulerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const deliveries = new Counter({
    name: 'chime_deliveries_total',
    help: 'Delivery attempts by destination platform and outcome (delivered, retrying, failed)',
    labelNames: ['platform', 'outcome'] as const,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'chime_delivery_retries_total',
    help: 'Delivery attempts that failed and were scheduled to be tried again',
    registers: [registry],
  });
  const lateness = new Histogram({
    name: 'chime_delivery_lateness_seconds',
    help: 'Time between when an occurrence was due and when the scheduler fired it',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
    registers: [registry],
  });
  new Gauge({
    name: 'chime_reminders_due',
    help: 'Reminders that are due but not claimed by the scheduler yet',
    registers: [registry],
    async collect() {
      this.set(await countDue());
    },
  });
  return { registry, deliveries, retries, lateness };
}
