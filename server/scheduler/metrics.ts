import { collectDefaultMetrics, Counter, Gauge, Histogram, type MetricObjectWithValues, type MetricValue, Registry } from 'prom-client';

export interface SchedulerMetrics {
  registry: Registry;
  deliveries: Counter<'platform' | 'outcome'>;
  retries: Counter;
  lateness: Histogram;
  databaseErrors: Counter;
}

/** The figures the delivery loop counts, wherever it runs (main thread or worker thread). */
const DELIVERY_METRICS = {
  deliveries: { name: 'chime_deliveries_total', help: 'Delivery attempts by destination platform and outcome (delivered, retrying, failed)', type: 'counter' },
  retries: { name: 'chime_delivery_retries_total', help: 'Delivery attempts that failed and were scheduled to be tried again', type: 'counter' },
  lateness: { name: 'chime_delivery_lateness_seconds', help: 'Time between when an occurrence was due and when the scheduler fired it', type: 'histogram' },
  databaseErrors: {
    name: 'chime_scheduler_database_errors_total',
    help: 'Times the delivery loop could not read or write the database; it tries again within a second',
    type: 'counter',
  },
} as const;

/** The delivery loop's counters and histogram, registered in `registry`. */
export function createDeliveryMetrics(registry: Registry): SchedulerMetrics {
  const deliveries = new Counter({ ...DELIVERY_METRICS.deliveries, labelNames: ['platform', 'outcome'] as const, registers: [registry] });
  const retries = new Counter({ ...DELIVERY_METRICS.retries, registers: [registry] });
  const lateness = new Histogram({
    ...DELIVERY_METRICS.lateness,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
    registers: [registry],
  });
  const databaseErrors = new Counter({ ...DELIVERY_METRICS.databaseErrors, registers: [registry] });
  return { registry, deliveries, retries, lateness, databaseErrors };
}

/**
 * The process-wide registry of one app instance: process metrics and the due gauge. Tests run
 * several apps in one process, and the global registry would refuse the second registration of the
 * same metric name.
 */
export function createAppRegistry(countDue: () => Promise<number>): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'chime_reminders_due',
    help: 'Reminders that are due but not claimed by the scheduler yet',
    registers: [registry],
    async collect() {
      // Without the database (PostgreSQL restarting, SQLite locked) the scrape still answers, with
      // the last figure: chime_scheduler_database_errors_total is what says the loop cannot read.
      const due = await countDue().catch(() => null);
      if (due !== null) this.set(due);
    },
  });
  return registry;
}

/** The app registry with the delivery loop's metrics in it (the loop runs on the main thread). */
export function createSchedulerMetrics(countDue: () => Promise<number>): SchedulerMetrics {
  return createDeliveryMetrics(createAppRegistry(countDue));
}

/**
 * Shows in `registry` the delivery metrics another thread counts: each scrape reads that thread's
 * figures (`read`, memoised per scrape) and prints them under the same names, so /metrics looks
 * the same whichever thread delivers. Until the first answer (or while the thread restarts) the
 * last figures are shown; a restarted thread counts from zero again, which Prometheus treats as a
 * counter reset.
 */
export function addRemoteDeliveryMetrics(registry: Registry, read: () => Promise<MetricObjectWithValues<MetricValue<string>>[]>): void {
  let last: MetricObjectWithValues<MetricValue<string>>[] = [];
  let reading: Promise<void> | null = null;
  const refresh = () =>
    (reading ??= read()
      .then((figures) => {
        last = figures;
      })
      .catch(() => undefined)
      .finally(() => {
        // One read serves every metric of the same scrape.
        setTimeout(() => (reading = null), 50).unref();
      }));
  for (const meta of Object.values(DELIVERY_METRICS)) {
    registry.registerMetric({
      ...meta,
      async get() {
        await refresh();
        const found = last.find((m) => m.name === meta.name);
        return { ...meta, aggregator: 'sum', values: found?.values ?? [] };
      },
    } as unknown as Parameters<Registry['registerMetric']>[0]);
  }
}
