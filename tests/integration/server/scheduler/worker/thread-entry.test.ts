/**
 * Delivery thread 0 started before the server's modules load (main.ts, thread-entry.ts): it waits
 * for its settings, the scheduler plugin takes it instead of starting another, and it delivers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadEarly, takeEarlyThread } from '../../../../../server/scheduler/worker/thread-entry.ts';
import { createDueReminder, signUp, startTestServer, type TestServer } from '../../../../helpers/server.ts';
import { startWebhookSink, type WebhookSink } from '../../../../helpers/webhook-sink.ts';

let sink: WebhookSink;
let server: TestServer | undefined;

beforeAll(async () => {
  sink = await startWebhookSink();
});
afterAll(async () => {
  await server?.close();
  await sink?.close();
});

describe('a delivery thread started early', () => {
  it('is the thread the scheduler then runs, with the settings it is handed, and delivers', async () => {
    startThreadEarly();
    server = await startTestServer({ overrides: { schedulerMode: 'worker', deliveryThreads: 1 } });
    const pool = server.app.scheduler.worker!;
    await pool.ready();
    // Taken by the scheduler plugin: none is left waiting, and no second thread was started.
    expect(takeEarlyThread()).toBeNull();
    expect(pool.starts).toBe(1);

    const user = await signUp(server.url);
    await createDueReminder(user.api, new Date(Date.now() + 1000), `${sink.url}/hook`, 'from the early thread');
    await sink.waitFor(1, 15_000);
    expect(sink.requests.filter((r) => r.body.includes('from the early thread'))).toHaveLength(1);
  });
});
