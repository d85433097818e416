/**
 * `npm run fake-discord`: a local fake Discord for developing Chime without a real bot.
 * Port: FAKE_DISCORD_PORT (default 3999). Stops on Ctrl-C.
 */
import { PermissionFlags as P } from './permissions.ts';
import { startFakeDiscord } from './index.ts';

const port = Number(process.env.FAKE_DISCORD_PORT ?? 3999);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`FAKE_DISCORD_PORT must be a port number (got "${process.env.FAKE_DISCORD_PORT}")`);
  process.exit(1);
}

// Stable credentials so a .env written once keeps working across restarts.
const CLIENT_ID = '1187000000000000001';
const BOT_TOKEN = `${Buffer.from(CLIENT_ID).toString('base64url')}.ZmFrZQ.fake-discord-bot-token-for-local-dev`;
const CLIENT_SECRET = 'fake-discord-client-secret-local-dev';

const DEMO_USER = '100000000000000001';
const OWNER = '100000000000000002';
const FRIEND = '100000000000000003';
const DEMO_GUILD = '1187000000000001000';
const OTHER_GUILD = '1187000000000002000';

const fake = await startFakeDiscord({ port, clientId: CLIENT_ID, botToken: BOT_TOKEN, clientSecret: CLIENT_SECRET, botUsername: 'Chime' });

fake.addUser({ id: DEMO_USER, username: 'demo', global_name: 'Demo User', email: 'demo@example.com' });
fake.addUser({ id: OWNER, username: 'serverowner', global_name: 'Server Owner', email: 'owner@example.com' });
fake.addUser({ id: FRIEND, username: 'alex', global_name: 'Alex', email: 'alex@example.com' });

fake.addGuild({
  id: DEMO_GUILD,
  name: 'Demo Server',
  ownerId: OWNER,
  channels: [
    { id: '1187000000000001100', name: 'Text Channels', type: 4 },
    { id: '1187000000000001101', name: 'general', type: 0, parent_id: '1187000000000001100' },
    { id: '1187000000000001102', name: 'reminders', type: 0, parent_id: '1187000000000001100', topic: 'Chime posts reminders here' },
    {
      id: '1187000000000001103',
      name: 'announcements',
      type: 0,
      parent_id: '1187000000000001100',
      // Only Admins (and the owner) may post; the bot may not.
      permission_overwrites: [
        { id: DEMO_GUILD, type: 'role', deny: P.SendMessages },
        { id: '1187000000000001202', type: 'role', allow: P.SendMessages },
      ],
    },
    { id: '1187000000000001104', name: 'Lounge', type: 2 },
    // An announcement channel everyone may post in (reminders can be published from it), and a stage.
    { id: '1187000000000001105', name: 'news', type: 5, parent_id: '1187000000000001100' },
    { id: '1187000000000001106', name: 'Town Hall', type: 13 },
    // A thread of #general, a private one the bot was added to, and a forum (a tag required) with one post.
    { id: '1187000000000001107', name: 'release-plans', type: 11, parent_id: '1187000000000001101', owner_id: DEMO_USER },
    { id: '1187000000000001108', name: 'staff', type: 12, parent_id: '1187000000000001101', owner_id: DEMO_USER, member_ids: [DEMO_USER, fake.clientId] },
    {
      id: '1187000000000001109',
      name: 'ideas',
      type: 15,
      flags: 1 << 4,
      available_tags: [
        { id: '1187000000000001301', name: 'proposal' },
        { id: '1187000000000001302', name: 'accepted', moderated: true },
      ],
    },
    { id: '1187000000000001110', name: 'Roadmap', type: 11, parent_id: '1187000000000001109', owner_id: DEMO_USER, applied_tags: ['1187000000000001301'] },
  ],
  roles: [
    { id: '1187000000000001201', name: 'Team', color: 0x2ecc71, mentionable: true, hoist: true, permissions: 0n },
    { id: '1187000000000001202', name: 'Admins', color: 0xe74c3c, mentionable: false, permissions: P.ManageGuild | P.ManageChannels | P.ManageRoles },
    {
      id: '1187000000000001203',
      name: 'Chime',
      managed: true,
      permissions: P.ViewChannel | P.SendMessages | P.EmbedLinks | P.ReadMessageHistory | P.MentionEveryone,
    },
  ],
  members: [
    { userId: DEMO_USER, roles: ['1187000000000001201', '1187000000000001202'] },
    { userId: FRIEND, roles: ['1187000000000001201'] },
  ],
  botMember: true,
});

fake.addGuild({
  id: OTHER_GUILD,
  name: 'Side Project',
  ownerId: DEMO_USER,
  channels: [{ id: '1187000000000002101', name: 'general', type: 0 }],
  roles: [],
  members: [{ userId: FRIEND }],
  botMember: false,
});

fake.setAuthorizingUser(DEMO_USER);

console.log(`Fake Discord listening on ${fake.url} (gateway ${fake.gatewayUrl})

Put these lines in .env:

DISCORD_TOKEN=${fake.botToken}
DISCORD_CLIENT_ID=${fake.clientId}
DISCORD_CLIENT_SECRET=${fake.clientSecret}
DISCORD_API_URL=${fake.apiUrl}

Seeded:
  user   Demo User (${DEMO_USER}, demo@example.com) - "logged in" at ${fake.url}/oauth2/authorize
  guild  Demo Server (${DEMO_GUILD}) with the bot: #general, #reminders, #announcements (bot cannot post), Lounge (voice)
         roles Team (mentionable), Admins (not mentionable), Chime (managed bot role)
  guild  Side Project (${OTHER_GUILD}) without the bot, owned by Demo User
  invite ${fake.url}/oauth2/authorize?client_id=${fake.clientId}&scope=bot+applications.commands&permissions=2048&guild_id=${OTHER_GUILD}
         adds the bot to Side Project.

Ctrl-C to stop.`);

let lastCount = 0;
const logTimer = setInterval(() => {
  for (const r of fake.requests.slice(lastCount)) {
    const flag = r.handled ? '' : '  (unhandled)';
    console.log(`${new Date(r.at).toISOString()} ${r.method} ${r.route} -> ${r.status}${flag}`);
  }
  lastCount = fake.requests.length;
}, 250);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(logTimer);
  console.log('\nStopping fake Discord...');
  await fake.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
