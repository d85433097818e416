import { Client, GatewayIntentBits, Routes } from 'discord.js';
import type { FastifyInstance } from 'fastify';
import type { DiscordConfig } from '../server/config.ts';
import { commands } from './commands/index.ts';
import { events } from './events/index.ts';
import type { BotContext } from './types.ts';

/** `https://discord.com/api/v10` -> `https://discord.com/api` (discord.js adds the version itself). */
export const restBase = (apiUrl: string) => apiUrl.replace(/\/+$/, '').replace(/\/v\d+$/, '');

export const commandPayloads = () => commands.map((c) => c.data.toJSON());

export interface ChimeBot {
  client: Client;
  /** Connects the gateway and registers the slash commands, in the background. */
  start(): void;
  /** Leaves the gateway (another instance took it over); start() connects again. */
  disconnect(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Resolves once connected and the commands are registered; rejects if either failed. Before
   * start() (this instance does not hold the gateway yet) it waits for it.
   */
  whenReady(): Promise<void>;
}

export function createBot(app: FastifyInstance, config: DiscordConfig): ChimeBot {
  const log = app.log.child({ component: 'discord-bot' });
  const client = new Client({
    // Slash commands and buttons arrive as interactions whatever the intents; Guilds keeps the
    // guild/channel/role cache used by the permission checks. No privileged intents.
    intents: [GatewayIntentBits.Guilds],
    // As many shards as Discord recommends (GET /gateway/bot): one gateway connection stops at 2,500 servers.
    shards: 'auto',
    rest: { api: restBase(config.apiUrl), version: '10', retries: 1, timeout: 15_000 },
    // Nothing the bot says pings anyone unless a reply explicitly allows it.
    allowedMentions: { parse: [], repliedUser: false },
  });
  // Delivery uses REST only: it must work while the gateway is (re)connecting.
  client.rest.setToken(config.token);
  const ctx: BotContext = { app, client, log };

  for (const event of events) {
    const listener = (...args: unknown[]) => {
      Promise.resolve((event.execute as (c: BotContext, ...a: unknown[]) => unknown)(ctx, ...args)).catch((err: unknown) =>
        log.error({ err, event: event.name }, 'discord event handler failed'),
      );
    };
    if (event.once) client.once(event.name, listener);
    else client.on(event.name, listener);
  }
  client.rest.on('rateLimited', (info) => log.debug({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'discord rate limit'));

  let ready: Promise<void> | null = null;
  let stopped = false;
  /** Callers of whenReady() before start(). */
  let waiting: Array<(ready: Promise<void>) => void> = [];

  async function registerCommands(): Promise<void> {
    const route = config.devGuildId ? Routes.applicationGuildCommands(config.clientId, config.devGuildId) : Routes.applicationCommands(config.clientId);
    await client.rest.put(route, { body: commandPayloads() });
    log.info({ count: commands.length, guild: config.devGuildId ?? undefined }, 'discord slash commands registered');
  }

  function connected(): Promise<void> {
    if (client.isReady()) return Promise.resolve();
    return new Promise((resolve) => client.once('clientReady', () => resolve()));
  }

  return {
    client,
    start() {
      if (ready) return;
      const registration = registerCommands().catch((err: unknown) => {
        log.error({ err }, 'could not register the discord slash commands');
        throw err;
      });
      const login = client.login(config.token).then(
        () => connected(),
        (err: unknown) => {
          if (!stopped) log.error({ err }, 'discord bot login failed; reminders to Discord are still sent over REST');
          throw err;
        },
      );
      ready = Promise.all([registration, login]).then(() => undefined);
      // Failures are logged above; nobody has to await this.
      ready.catch(() => {});
      for (const resolve of waiting) resolve(ready);
      waiting = [];
    },
    async disconnect() {
      ready = null;
      await client.destroy();
    },
    async stop() {
      stopped = true;
      ready = null;
      await client.destroy();
    },
    whenReady() {
      if (ready) return ready;
      if (stopped) return Promise.reject(new Error('discord bot stopped'));
      return new Promise<Promise<void>>((resolve) => waiting.push(resolve)).then((r) => r);
    },
  };
}
