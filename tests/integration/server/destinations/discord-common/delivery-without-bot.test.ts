// Runs on SQLite only: which modules a delivery thread loads does not depend on the database (vitest.config.ts).
/**
 * Layers (docs/architecture.md): what a Discord delivery looks like is rendered by the server, so a
 * delivery thread never loads the bot. A separate process does exactly what a delivery thread does
 * for Discord (tests/helpers/discord-delivery-child.ts: the worker's sender services and module
 * senders, one direct message and one channel message to the fake Discord) under the module-trace
 * preload, which lists every module it loads, lazily loaded senders included.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOf, type BotEnv, command, discordEnv, ids, startBotEnv } from '../../../../helpers/bot-harness.ts';
import { REPO_ROOT } from '../../../../helpers/repo-root.ts';

const ROOT = REPO_ROOT;
const PRELOAD = fileURLToPath(new URL('../../../../helpers/module-trace/preload.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('../../../../helpers/discord-delivery-child.ts', import.meta.url));

let env: BotEnv;
let dir: string;
beforeAll(async () => {
  env = await startBotEnv();
  dir = mkdtempSync(path.join(tmpdir(), 'chime-layers-'));
});
afterAll(async () => {
  await env?.server.close();
  await env?.fake.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the child to its end; its printed results and the modules it loaded. */
async function deliverInChild(extraEnv: Record<string, string>): Promise<{ results: any; trace: string[] }> {
  const traceFile = path.join(dir, 'delivery.trace');
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', PRELOAD, CHILD], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: dir, MODULE_TRACE_FILE: traceFile, ...discordEnv(env.fake), DATABASE_URL: env.server.config.databaseUrl, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code, stderr).toBe(0);
  return { results: JSON.parse(stdout.trim().split('\n').pop()!), trace: readFileSync(traceFile, 'utf8').split('\n') };
}

describe('a Discord delivery outside the bot', () => {
  it('renders and sends the message with server code only: no bot/ module is loaded', async () => {
    // An account with a Discord identity, made the way the bot makes one.
    const made = await command(env.fake, { userId: ids.alice, name: 'remind', options: [{ name: 'message', value: 'layers' }, { name: 'when', value: 'in 1 hour' }] });
    expect(made.content).toContain('layers');
    const account = (await accountOf(env.app, ids.alice))!;
    const reminder = { id: '0193a7c2-5f1e-7000-8000-00000000aaaa', message: 'Water the plants', recurrence_type: 'ONCE', timezone: 'UTC', remind_at_utc: new Date().toISOString() };

    const { results, trace } = await deliverInChild({
      CHIME_TEST_ACCOUNT: JSON.stringify({ id: account.id, timezone: account.timezone, locale: 'fr', username: account.username }),
      CHIME_TEST_REMINDER: JSON.stringify(reminder),
      CHIME_TEST_CHANNEL: JSON.stringify({ guild_id: ids.guild, channel_id: ids.general }),
    });
    expect(results).toMatchObject({ dm: { ok: true }, channel: { ok: true } });

    // What arrived is the full delivery: the header in the owner's language, the text, the buttons.
    for (const msg of [env.fake.dmMessagesTo(ids.alice).at(-1)!, env.fake.messagesIn(ids.general).at(-1)!]) {
      expect(msg.content).toMatch(/Rappel[\s\S]*Water the plants$/);
      expect(msg.components).toHaveLength(1);
    }

    // The trace saw the rendering (so it would see a bot/ module among them), and no bot/ module.
    const loaded = trace.filter((line) => line.startsWith('import file:'));
    const at = (relative: string) => `import ${pathToFileURL(path.join(ROOT, relative)).href}`;
    expect(loaded).toContain(at('server/destinations/discord-common/delivery-message.ts'));
    expect(loaded).toContain(at('server/destinations/discord-channel/failure-notice.ts'));
    expect(loaded).toContain(at('server/discord/i18n.ts'));
    const botDir = pathToFileURL(path.join(ROOT, 'bot')).href + '/';
    expect(loaded.filter((line) => line.includes(botDir))).toEqual([]);
  }, 120_000);
});
