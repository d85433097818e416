import { Client, GatewayIntentBits, Routes } from 'discord.js';
import type { FastifyInstance } from 'fastify';
import type { DiscordConfig } from '../server/config.ts';
import { commands, messageCommands } from './commands/index.ts';
import { events } from './events/index.ts';
import type { BotContext } from './types.ts';

/** `https://discord.com/api/v10` -> `https://discord.com/api` (discord.js adds the version itself). */
export const restBase = (apiUrl: string) => apiUrl.replace(/\/+$/, '').replace(/\/v\d+$/, '');

export const commandPayloads = () => [...commands.map((c) => c.data.toJSON()), ...messageCommands.map((c) => c.data.toJSON())];

export interface ChimeBot {
  /** The connected client; a new one after disconnect() and start(). */
  readonly client: Client;
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

  /**
   * A discord.js Client cannot log in again once destroyed (its gateway manager stays marked
   * destroyed and never emits clientReady again), so an instance that gives the gateway up and
   * later takes it back builds a new one.
   */
  function buildClient(): Client {
    const built = new Client({
      // Slash commands and buttons arrive as interactions whatever the intents; Guilds keeps the
      // guild/channel/role cache used by the permission checks. No privileged intents.
      intents: [GatewayIntentBits.Guilds],
      // As many shards as Discord recommends (GET /gateway/bot): one gateway connection stops at 2,500 servers.
      shards: 'auto',
      rest: { api: restBase(config.apiUrl), version: '10', retries: 1, timeout: 15_000 },
      // Nothing the bot says pings anyone unless a reply explicitly allows it.
      allowedMentions: { parse: [], repliedUser: false },
    });
    built.rest.setToken(config.token);
    const ctx: BotContext = { app, client: built, log };
    for (const event of events) {
      const listener = (...args: unknown[]) => {
        Promise.resolve((event.execute as (c: BotContext, ...a: unknown[]) => unknown)(ctx, ...args)).catch((err: unknown) =>
          log.error({ err, event: event.name }, 'discord event handler failed'),
        );
      };
      if (event.once) built.once(event.name, listener);
      else built.on(event.name, listener);
    }
    built.rest.on('rateLimited', (info) => log.debug({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'discord rate limit'));
    return built;
  }

  let client = buildClient();
  let destroyed = false;
  let ready: Promise<void> | null = null;
  let stopped = false;
  /** Callers of whenReady() before start(). */
  let waiting: Array<(ready: Promise<void>) => void> = [];

  async function registerCommands(): Promise<void> {
    const route = config.devGuildId ? Routes.applicationGuildCommands(config.clientId, config.devGuildId) : Routes.applicationCommands(config.clientId);
    await client.rest.put(route, { body: commandPayloads() });
    log.info({ count: commands.length + messageCommands.length, guild: config.devGuildId ?? undefined }, 'discord slash commands registered');
  }

  function connected(): Promise<void> {
    if (client.isReady()) return Promise.resolve();
    return new Promise((resolve) => client.once('clientReady', () => resolve()));
  }

  return {
    get client() {
      return client;
    },
    start() {
      if (ready) return;
      if (destroyed) {
        client = buildClient();
        destroyed = false;
      }
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
      destroyed = true;
      await client.destroy();
    },
    async stop() {
      stopped = true;
      ready = null;
      destroyed = true;
      await client.destroy();
    },
    whenReady() {
      if (ready) return ready;
      if (stopped) return Promise.reject(new Error('discord bot stopped'));
      return new Promise<Promise<void>>((resolve) => waiting.push(resolve)).then((r) => r);
    },
  };
}
