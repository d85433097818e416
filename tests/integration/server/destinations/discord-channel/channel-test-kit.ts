/** What the channel-kind tests share: a Discord identity for the member, and firing a reminder until its deliveries are final. */
import { newId, nowIso } from '../../../../../server/lib/ids.ts';
import { fireNow } from '../../../../helpers/bot-harness.ts';
import type { FakeDiscord } from '../../../../helpers/fake-discord/index.ts';
import type { signUp, TestServer } from '../../../../helpers/server.ts';

/** Links the account to a Discord user directly in the database (no OAuth round trip: these tests are about channels). */
export async function linkDiscord(server: TestServer, accountId: string, discordId: string): Promise<void> {
  const now = nowIso();
  await server.app.db
    .insertInto('identities')
    .values({
      id: newId(),
      account_id: accountId,
      provider: 'discord',
      external_id: discordId,
      username: 'member',
      password_hash: null,
      access_token: null,
      refresh_token: null,
      token_expires_at: null,
      scope: null,
      dm_channel_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Fires the reminder's next occurrence and waits until `count` of its deliveries are final; answers the newest, as the API shows it. */
export async function deliver(ctx: { server: TestServer; fake: FakeDiscord; member: Awaited<ReturnType<typeof signUp>> }, reminderId: string, count = 1) {
  await fireNow(ctx.server.app, reminderId);
  return ctx.fake.waitFor(
    async () => {
      const res = await ctx.member.api.get(`/api/reminders/${reminderId}/deliveries`);
      const done = (res.body.deliveries ?? []).filter((d: { status: string }) => d.status === 'delivered' || d.status === 'failed');
      return done.length >= count ? done[0] : null;
    },
    10_000,
    count === 1 ? 'a final delivery' : `${count} final deliveries`,
  );
}
