/** What the push destination tests share: a due reminder made through the API, and waiting for its delivery. */
import { expect } from 'vitest';
import type { signUp, TestServer } from '../../../helpers/server.ts';

export const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** A one-off reminder made through the API (so every check runs), then made due now. */
export async function dueReminder(server: TestServer, user: Awaited<ReturnType<typeof signUp>>, type: string, metadata: Record<string, unknown>, message = 'Sortir les poubelles') {
  const created = await user.api.post('/api/reminders', { date: tomorrow(), time: '09:00', message, destinations: [{ type, metadata }] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const now = new Date(Date.now() - 5).toISOString();
  await server.app.db.updateTable('reminders').set({ next_fire_utc: now, next_occurrence_utc: now }).where('id', '=', created.body.id).execute();
  server.app.scheduler.wake();
  return created.body as { id: string; destinations: Array<{ id: string; metadata: Record<string, unknown> }> };
}

export async function settled(server: TestServer, reminderId: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', reminderId).execute();
    if (rows.length > 0 && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows[0]!;
    if (Date.now() > deadline) throw new Error(`delivery not settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const attemptsOf = (server: TestServer, deliveryId: string) =>
  server.app.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
