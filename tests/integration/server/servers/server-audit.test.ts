import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../../server/lib/ids.ts';
import { fireNow, waitForMessages } from '../../../helpers/bot-harness.ts';
import { testDialect } from '../../../helpers/test-database.ts';
import { CH, channelReminder, type Fixture, G_MAIN, G_OTHER, linkedAccount, startServersFixture, USER, webhook, DEFAULT_SERVER_SETTINGS } from '../../../helpers/servers-fixture.ts';

let f: Fixture;
type Account = Awaited<ReturnType<typeof linkedAccount>>;
let owner: Account;
let mod: Account;
let member: Account;
let other: Account;

beforeAll(async () => {
  f = await startServersFixture();
  owner = await linkedAccount(f, USER.owner);
  mod = await linkedAccount(f, USER.mod);
  member = await linkedAccount(f, USER.member);
  other = await linkedAccount(f, USER.other);
});

afterAll(async () => {
  await f?.close();
});

beforeEach(() => {
  f.server.app.discord!.invalidateCache();
});

type Entry = {
  at: string;
  actor: { discord_user_id: string | null; username: string | null };
  action: string;
  reminder_id: string | null;
  summary: string;
  detail: { kind: string; params: Record<string, string> } | null;
};

async function audit(who: Account = owner, guild = G_MAIN): Promise<Entry[]> {
  const res = await who.api.get(`/api/servers/${guild}/audit?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries;
}

describe('GET /api/servers/:guildId/audit', () => {
  it('records every change to a server reminder or setting, by anyone, newest first', async () => {
    const created = await member.api.post('/api/reminders', channelReminder(CH.general, { extra: [webhook], message: 'Audited' }));
    const id = created.body.id as string;
    await member.api.put(`/api/reminders/${id}`, { ...channelReminder(CH.general, { extra: [webhook] }), message: 'Audited twice' });
    await member.api.post(`/api/reminders/${id}/pause`);
    await member.api.post(`/api/reminders/${id}/resume`);
    await mod.api.post(`/api/servers/${G_MAIN}/reminders/${id}/pause`);
    await mod.api.post(`/api/servers/${G_MAIN}/reminders/${id}/resume`);
    await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, max_reminders: 5 });
    const taken = await mod.api.post(`/api/servers/${G_MAIN}/reminders/${id}/take-over`);
    await owner.api.delete(`/api/servers/${G_MAIN}/reminders/${taken.body.id}`);
    // Changes of a reminder that posts in no server's channel are nobody's business here.
    const personal = await member.api.post('/api/reminders', { ...channelReminder(CH.general), destinations: [webhook] });
    await member.api.delete(`/api/reminders/${personal.body.id}`);

    const entries = await audit();
    const mine = entries.filter((e) => e.reminder_id === id || e.reminder_id === taken.body.id || e.action === 'settings').reverse();
    expect(mine.map((e) => [e.action, e.actor.username])).toEqual([
      ['create', 'member'],
      ['edit', 'member'],
      ['pause', 'member'],
      ['resume', 'member'],
      ['pause', 'mod'],
      ['resume', 'mod'],
      ['settings', 'owner'],
      ['take_over', 'mod'],
      ['delete', 'owner'],
    ]);
    expect(mine[0]).toMatchObject({ actor: { discord_user_id: USER.member }, summary: 'Created "Audited"' });
    expect(mine[6]!.summary).toBe('Changed max_reminders');
    expect(mine[7]!.summary).toContain('from member');
    // The same, as data the dashboard words in the reader's language.
    expect(mine.map((e) => e.detail?.kind)).toEqual(['created', 'edited', 'paused', 'resumed', 'pausedHere', 'resumedHere', 'settings', 'tookOver', 'removedEnded']);
    expect(mine[1]!.detail!.params).toEqual({ message: 'Audited twice' });
    expect(mine[6]!.detail!.params).toEqual({ fields: 'max_reminders' });
    expect(mine[7]!.detail!.params).toEqual({ message: 'Audited twice', creator: 'member', source: id });
    expect(entries.some((e) => e.reminder_id === personal.body.id)).toBe(false);
    // Newest first.
    expect([...entries].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map((e) => e.at)).toEqual(entries.map((e) => e.at));
    // Another server's log has none of it.
    expect(await audit(other, G_OTHER)).toEqual([]);
  });

  it('pages with next_cursor and forgets entries older than 90 days', async () => {
    const old = new Date(Date.now() - 91 * 24 * 3600 * 1000).toISOString();
    const oldId = newId();
    await f.server.app.db
      .insertInto('server_audit')
      .values({ id: oldId, guild_id: G_MAIN, at: old, actor_account_id: null, actor_discord_user_id: null, actor_username: null, action: 'edit', reminder_id: null, summary: 'ancient' })
      .execute();
    // An entry from before `detail` existed reads with detail null.
    const olderId = newId();
    await f.server.app.db
      .insertInto('server_audit')
      .values({ id: olderId, guild_id: G_MAIN, at: new Date().toISOString(), actor_account_id: null, actor_discord_user_id: null, actor_username: null, action: 'edit', reminder_id: null, summary: 'before detail' })
      .execute();
    const all = await audit();
    expect(all.find((e) => e.summary === 'before detail')?.detail).toBeNull();
    expect(all.some((e) => e.summary === 'ancient')).toBe(false);
    expect(await f.server.app.db.selectFrom('server_audit').select('id').where('id', '=', oldId).executeTakeFirst()).toBeUndefined();
    const seen: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { entries: Entry[]; next_cursor: string | null } } = await owner.api.get(`/api/servers/${G_MAIN}/audit?limit=3${cursor ? `&before=${cursor}` : ''}`);
      seen.push(...res.body.entries);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect((await owner.api.get(`/api/servers/${G_MAIN}/audit?before=zzz`)).body.code).toBe('CURSOR_INVALID');
  });

  it('is for managers', async () => {
    expect((await member.api.get(`/api/servers/${G_MAIN}/audit`)).body.code).toBe('NOT_SERVER_MANAGER');
    expect((await other.api.get(`/api/servers/${G_MAIN}/audit`)).body.code).toBe('SERVER_NOT_FOUND');
  });
});

describe('a change and its audit entry', () => {
  /** The database refuses every audit entry while `work` runs, as a full disk or a lost connection would at that moment. */
  async function withAuditRefused(work: () => Promise<void>): Promise<void> {
    const db = f.server.app.db;
    const onPostgres = testDialect === 'postgres';
    if (onPostgres) {
      await sql`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'no audit here'; end $$`.execute(db);
      await sql`create trigger refuse_audit before insert on server_audit for each row execute function refuse_audit()`.execute(db);
    } else {
      await sql`create trigger refuse_audit before insert on server_audit begin select raise(abort, 'no audit here'); end`.execute(db);
    }
    try {
      await work();
    } finally {
      await sql`drop trigger refuse_audit${sql.raw(onPostgres ? ' on server_audit' : '')}`.execute(db);
      if (onPostgres) await sql`drop function refuse_audit()`.execute(db);
    }
  }

  it('are written together or not at all: a refused entry leaves the pause, the settings and the removal undone', async () => {
    const created = await member.api.post('/api/reminders', channelReminder(CH.general, { message: 'All or nothing' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const maxBefore = (await owner.api.get(`/api/servers/${G_MAIN}/settings`)).body.max_reminders;
    await withAuditRefused(async () => {
      expect((await mod.api.post(`/api/servers/${G_MAIN}/reminders/${id}/pause`)).status).toBeGreaterThanOrEqual(500);
      expect((await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, max_reminders: maxBefore + 7 })).status).toBeGreaterThanOrEqual(500);
      expect((await mod.api.delete(`/api/servers/${G_MAIN}/reminders/${id}`)).status).toBeGreaterThanOrEqual(500);
    });
    const destinations = await f.server.app.db.selectFrom('destinations').select('server_paused_at').where('reminder_id', '=', id).execute();
    expect(destinations).toEqual([{ server_paused_at: null }]);
    expect((await owner.api.get(`/api/servers/${G_MAIN}/settings`)).body.max_reminders).toBe(maxBefore);
    // Allowed again, the same pause is made and logged.
    expect((await mod.api.post(`/api/servers/${G_MAIN}/reminders/${id}/pause`)).status).toBe(200);
    expect((await audit()).some((e) => e.action === 'pause' && e.reminder_id === id)).toBe(true);
  });
});

describe('former members', () => {
  async function leaverReminder(message: string) {
    f.fake.addMember(G_MAIN, { userId: USER.leaver, roles: [] });
    f.server.app.discord!.invalidateCache(G_MAIN);
    const leaver = await linkedAccount(f, USER.leaver);
    const res = await leaver.api.post('/api/reminders', channelReminder(CH.general, { message }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    f.fake.removeMember(G_MAIN, USER.leaver);
    f.server.app.discord!.invalidateCache(G_MAIN);
    return res.body.id as string;
  }

  const listed = async (id: string) => (await owner.api.get(`/api/servers/${G_MAIN}/reminders?limit=100`)).body.reminders.find((r: { id: string }) => r.id === id);

  it('"keep": marked still_member false for managers, and it goes on firing as the bot', async () => {
    await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, former_members: 'keep' });
    const id = await leaverReminder('Kept after leaving');
    expect(await listed(id)).toMatchObject({ created_by: { discord_user_id: USER.leaver, still_member: false }, is_paused: false });
    await fireNow(f.server.app, id);
    const messages = await waitForMessages(f.fake, () => f.fake.messagesIn(CH.general).filter((m) => String(m.content).includes('Kept after leaving')));
    expect(messages).toHaveLength(1);
  });

  it('"pause": paused when the server is read, and at send time, with an audit entry', async () => {
    await owner.api.put(`/api/servers/${G_MAIN}/settings`, { ...DEFAULT_SERVER_SETTINGS, former_members: 'pause' });
    const seenAtRead = await leaverReminder('Paused when read');
    expect(await listed(seenAtRead)).toMatchObject({ created_by: { still_member: false }, is_paused: true, status: 'paused' });
    expect((await audit()).some((e) => e.action === 'pause' && e.summary.includes('no longer in the server'))).toBe(true);

    const seenAtSend = await leaverReminder('Paused when sent');
    await fireNow(f.server.app, seenAtSend);
    await f.fake.waitFor(
      async () => {
        const d = await f.server.app.db.selectFrom('destinations').select('server_paused_at').where('reminder_id', '=', seenAtSend).executeTakeFirst();
        return d?.server_paused_at ? true : null;
      },
      5000,
      'paused at send time',
    );
    expect(f.fake.messagesIn(CH.general).some((m) => String(m.content).includes('Paused when sent'))).toBe(false);
    expect((await audit()).some((e) => e.action === 'pause' && e.reminder_id === seenAtSend)).toBe(true);
  });
});
