/**
 * An alert before a reminder, delivered by Discord DM to the fake Discord: the header says how
 * soon with `<t:…:R>` (Discord shows "in 30 minutes" in the reader's language) and there are no
 * Snooze/Done buttons, which would act on an occurrence that has not come yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type BotEnv, command, ids, reminderRows, startBotEnv, waitForMessages } from '../../../../helpers/bot-harness.ts';
import { updateReminderFields } from '../../../../../server/reminders/service.ts';

const MINUTE = 60_000;
let env: BotEnv;
beforeAll(async () => {
  env = await startBotEnv();
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
});

describe('an alert by Discord DM', () => {
  it('says how soon the reminder is, in the owner language, without buttons', async () => {
    const made = await command(env.fake, { userId: ids.alice, name: 'remind', options: [{ name: 'message', value: 'Call the dentist' }, { name: 'when', value: 'in 3 hours' }] });
    expect(made.content).toContain('Call the dentist');
    const account = (await accountOf(env.app, ids.alice))!;
    await env.app.db.updateTable('accounts').set({ locale: 'fr' }).where('id', '=', account.id).execute();
    const [row] = await reminderRows(env.app, account.id);
    const saved = await updateReminderFields(env.app, account.id, row!.id, {
      message: row!.message,
      date: row!.local_date,
      time: row!.local_time,
      alerts: [{ before_minutes: 30 }],
      destinations: [{ type: 'discord_dm', metadata: {} }],
    });
    expect(saved.reminder.next_alert_utc).toBe(new Date(Date.parse(row!.next_occurrence_utc!) - 30 * MINUTE).toISOString());

    // Bring the occurrence to 30 minutes from now, so its alert is due (as fireNow does for an occurrence).
    const occurrence = Math.floor((Date.now() + 30 * MINUTE - 1000) / 1000) * 1000;
    const at = (ms: number) => new Date(ms).toISOString();
    await env.app.db
      .updateTable('reminders')
      .set({ next_fire_utc: at(occurrence), next_occurrence_utc: at(occurrence), next_alert_utc: at(occurrence - 30 * MINUTE) })
      .where('id', '=', row!.id)
      .execute();
    const before = env.fake.dmMessagesTo(ids.alice).length;
    env.app.scheduler.wake();
    const messages = await waitForMessages(env.fake, () => env.fake.dmMessagesTo(ids.alice), before + 1);
    const alert = messages.at(-1)!;
    expect(alert.content).toBe(`🔔 **Rappel <t:${occurrence / 1000}:R>**\nCall the dentist`);
    expect(alert.components ?? []).toHaveLength(0);

    const deliveries = await env.app.db.selectFrom('deliveries').selectAll().where('reminder_id', '=', row!.id).execute();
    expect(deliveries).toMatchObject([{ alert_minutes: 30, occurrence_utc: at(occurrence) }]);
    expect((await reminderRows(env.app, account.id))[0]!.next_alert_utc).toBeNull();
  }, 60_000);
});
