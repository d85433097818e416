// Runs on SQLite only: another process holds SQLite's write lock (vitest.config.ts).
/**
 * Discord forgets an interaction that gets no first response within 3 seconds (the fake Discord
 * does the same). When the database holds the bot up (another process holds SQLite's write lock, as
 * a backup or the sqlite3 shell does), a /remind or a button press is deferred before that, and the
 * answer replaces the "thinking" state: the user learns the reminder was made instead of reading
 * "The application did not respond" and making it twice (bot/replies/reply.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../helpers/fake-discord/index.ts';
import type { InteractionResponseRecord } from '../../helpers/fake-discord/types.ts';
import { command, EPHEMERAL, fireNow, ids, reminderRows, seedDiscord, startChime, waitForMessages } from '../../helpers/bot-harness.ts';
import type { TestServer } from '../../helpers/server.ts';
import { holdWriteLock } from '../../helpers/sqlite-lock.ts';
import { onPostgres } from '../../helpers/test-database.ts';

let fake: FakeDiscord;
let server: TestServer;

beforeAll(async () => {
  if (onPostgres) throw new Error('SQLite only: run this file in the server project');
  fake = await startFakeDiscord();
  seedDiscord(fake);
  server = await startChime(fake);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** The first response came in time, and was a deferral of this callback type. */
function deferredInTime(first: InteractionResponseRecord, dispatchedAt: number, type: 5 | 6) {
  expect(first.kind).toBe('callback');
  expect(first.type).toBe(type);
  expect(first.at - dispatchedAt).toBeLessThan(3000);
}

describe('an answer held up by the database', () => {
  it('/remind is deferred within 3 s, then says the reminder was made; it is made once', async () => {
    // The account exists already: /remind's first write is the reminder itself.
    await command(fake, { userId: ids.alice, name: 'reminders' });
    const released = holdWriteLock(server.config.databaseUrl, 2500);
    const { id } = fake.dispatchInteraction(
      fake.slashCommand({ userId: ids.alice, name: 'remind', options: [{ name: 'message', value: 'Stretch your legs' }, { name: 'when', value: 'in 2 hours' }] }),
    );
    const dispatchedAt = fake.interaction(id)!.dispatchedAt;
    const first = await fake.waitForInteractionResponse(id, { timeoutMs: 5000 });
    deferredInTime(first, dispatchedAt, 5);
    expect(first.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    await released;

    const answer = await fake.waitForInteractionResponse(id, { count: 2, timeoutMs: 5000 });
    expect(answer.kind).toBe('editOriginal');
    expect(answer.data.content).toMatch(/^✅ Reminder set for/);
    expect(fake.interaction(id)!.original!.content).toBe(answer.data.content);
    expect(fake.interactionResponses(id)).toHaveLength(2);
    expect((await reminderRows(server.app)).filter((r) => r.message === 'Stretch your legs')).toHaveLength(1);
  });

  it('Snooze and Done buttons are acknowledged within 3 s, then answer (a message of its own; the buttons removed)', async () => {
    const made = await command(fake, { userId: ids.alice, name: 'remind', options: [{ name: 'message', value: 'Drink water' }, { name: 'when', value: 'in 1 hour' }, { name: 'repeat', value: 'DAILY' }] });
    const reminderId = /reminders\/([\w-]+)/.exec(made.content)![1]!;
    await fireNow(server.app, reminderId);
    const [msg] = await waitForMessages(fake, () => fake.dmMessagesTo(ids.alice).filter((m) => m.content.endsWith('Drink water')));
    await fake.waitFor(
      async () => (await server.app.db.selectFrom('deliveries').select('status').where('reminder_id', '=', reminderId).executeTakeFirst())?.status === 'delivered',
      3000,
      'delivered',
    );

    const released = holdWriteLock(server.config.databaseUrl, 2500);
    const { id } = fake.dispatchInteraction(fake.buttonPress({ userId: ids.alice, customId: `rem:snooze10:${reminderId}`, messageId: msg!.id }));
    const first = await fake.waitForInteractionResponse(id, { timeoutMs: 5000 });
    deferredInTime(first, fake.interaction(id)!.dispatchedAt, 6);
    await released;

    const answer = await fake.waitForInteractionResponse(id, { count: 2, timeoutMs: 5000 });
    expect(answer.kind).toBe('followup');
    expect(answer.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(answer.data.content).toMatch(/^💤 Snoozed until/);
    // The delivered message keeps its buttons.
    expect(fake.dmMessagesTo(ids.alice).find((m) => m.id === msg!.id)!.components).toHaveLength(1);
    const row = await server.app.db.selectFrom('reminders').select('snoozed_at_utc').where('id', '=', reminderId).executeTakeFirstOrThrow();
    expect(row.snoozed_at_utc).not.toBeNull();

    // Done, held up too (it cancels that snooze): the buttons go from the message once it can.
    const releasedAgain = holdWriteLock(server.config.databaseUrl, 2500);
    const done = fake.dispatchInteraction(fake.buttonPress({ userId: ids.alice, customId: `rem:done:${reminderId}`, messageId: msg!.id }));
    deferredInTime(await fake.waitForInteractionResponse(done.id, { timeoutMs: 5000 }), fake.interaction(done.id)!.dispatchedAt, 6);
    await releasedAgain;
    const edited = await fake.waitForInteractionResponse(done.id, { count: 2, timeoutMs: 5000 });
    expect(edited.kind).toBe('editOriginal');
    expect(edited.messageId).toBe(msg!.id);
    expect(fake.dmMessagesTo(ids.alice).find((m) => m.id === msg!.id)!.components).toEqual([]);
    const note = await fake.waitForInteractionResponse(done.id, { count: 3, timeoutMs: 5000 });
    expect(note.kind).toBe('followup');
    expect(note.data.content).toMatch(/^✅ Done\. Your pending snooze is cancelled/);
    expect((await server.app.db.selectFrom('reminders').select('snoozed_at_utc').where('id', '=', reminderId).executeTakeFirstOrThrow()).snoozed_at_utc).toBeNull();
  });

  it('"Remind me about this" shows its modal at once whatever the database does; the submission is deferred, then answered', async () => {
    await command(fake, { userId: ids.alice, name: 'reminders' });
    const target = fake.postUserMessage({ channelId: ids.general, authorId: ids.bob, content: 'Quarterly report' });
    // A modal cannot follow a deferral: the command must answer with it without the database.
    const released = holdWriteLock(server.config.databaseUrl, 2500);
    const cmd = fake.dispatchInteraction(fake.slashCommand({ userId: ids.alice, name: 'Remind me about this', commandType: 3, targetId: target.id, guildId: ids.guild, channelId: ids.general }));
    const modal = await fake.waitForInteractionResponse(cmd.id, { timeoutMs: 5000 });
    expect(modal.type).toBe(9);
    expect(modal.at - fake.interaction(cmd.id)!.dispatchedAt).toBeLessThan(1000);

    const submitted = fake.dispatchInteraction(fake.submitModal(cmd.id, { values: { when: 'in 2 hours' } }));
    const first = await fake.waitForInteractionResponse(submitted.id, { timeoutMs: 5000 });
    deferredInTime(first, fake.interaction(submitted.id)!.dispatchedAt, 5);
    expect(first.data.flags & EPHEMERAL).toBe(EPHEMERAL);
    await released;
    const answer = await fake.waitForInteractionResponse(submitted.id, { count: 2, timeoutMs: 5000 });
    expect(answer.kind).toBe('editOriginal');
    expect(answer.data.content).toMatch(/^✅ Reminder set for/);
    expect((await reminderRows(server.app)).filter((r) => r.message.includes('> Quarterly report'))).toHaveLength(1);
  });

  it('an answer ready in time is a plain reply, not deferred', async () => {
    const reply = await command(fake, { userId: ids.alice, name: 'reminders' });
    expect(fake.interactionResponses(reply.id).map((r) => [r.kind, r.type])).toEqual([['callback', 4]]);
  });
});
