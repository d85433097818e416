import { setTimeout as delay } from 'node:timers/promises';
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
  /**
   * The connected client; a new one after disconnect() and start(). Sharded (DISCORD_SHARD_COUNT):
   * the client of the lowest shard this instance holds (see shardClients).
   */
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
  /**
   * Connects exactly these shards of `shardCount` (DISCORD_SHARD_COUNT, docs/operations.md
   * "Spreading the gateway's shards"), closing the current connections first; an empty list only
   * closes them. Resolves once the old connections are closed; the new ones connect in the
   * background (whenReady() waits for them). The slash commands are registered by the instance
   * that takes shard 0.
   */
  useShards(shards: number[], shardCount: number): Promise<void>;
  /** With DISCORD_SHARD_COUNT: the client of each shard this instance holds (one client per shard). */
  readonly shardClients: ReadonlyMap<number, Client>;
  /** The shard count GET /gateway/bot recommends (1 when Discord cannot be asked). */
  recommendedShards(): Promise<number>;
}

/** Two REST attempts of 15 s (the client's retries and timeout below) and some margin. */
const LOGIN_SETTLE_MS = 35_000;

export function createBot(app: FastifyInstance, config: DiscordConfig): ChimeBot {
  const log = app.log.child({ component: 'discord-bot' });

  /**
   * A discord.js Client cannot log in again once destroyed (its gateway manager stays marked
   * destroyed and never emits clientReady again), so an instance that gives the gateway up and
   * later takes it back builds a new one.
   */
  function buildClient(sharding?: { shards: number[]; shardCount: number }): Client {
    const built = new Client({
      // Slash commands and buttons arrive as interactions whatever the intents; Guilds keeps the
      // guild/channel/role cache used by the permission checks. No privileged intents.
      intents: [GatewayIntentBits.Guilds],
      // As many shards as Discord recommends (GET /gateway/bot): one gateway connection stops at 2,500 servers.
      // With DISCORD_SHARD_COUNT, only the shards this instance holds a lease on.
      ...(sharding ? { shards: sharding.shards, shardCount: sharding.shardCount } : { shards: 'auto' as const }),
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

  /** The login in flight of each client, settled either way. */
  const logins = new WeakMap<Client, Promise<unknown>>();

  function logIn(c: Client): Promise<string> {
    const login = c.login(config.token);
    logins.set(c, login.catch(() => {}));
    return login;
  }

  /**
   * Closes a client's gateway session. discord.js does not stop a login whose first request (GET
   * /gateway/bot) is still out when the client is destroyed: its manager connects once the answer
   * comes and the session stays open with nothing left to close it, so a shard given back would
   * still receive its guilds' events beside the instance that took it. The login settles first
   * (the REST client's timeout bounds it, LOGIN_SETTLE_MS in case it does not), then the client is destroyed.
   */
  async function destroyClient(c: Client): Promise<void> {
    const login = logins.get(c);
    if (login) {
      const bound = new AbortController();
      await Promise.race([login, delay(LOGIN_SETTLE_MS, undefined, { signal: bound.signal }).catch(() => {})]);
      bound.abort();
    }
    await c.destroy();
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

  function connected(c: Client = client): Promise<void> {
    if (c.isReady()) return Promise.resolve();
    return new Promise((resolve) => c.once('clientReady', () => resolve()));
  }

  /** With DISCORD_SHARD_COUNT: a client per shard this instance holds. */
  const shardClients = new Map<number, Client>();
  const shardReady = new WeakMap<Client, Promise<void>>();

  /** How long to leave between two IDENTIFYs: 5 s / max_concurrency of GET /gateway/bot. */
  async function identifyGapMs(): Promise<number> {
    try {
      const answer = (await client.rest.get(Routes.gatewayBot())) as { session_start_limit?: { max_concurrency?: number } };
      const concurrency = answer.session_start_limit?.max_concurrency;
      return Math.ceil(5000 / (Number.isInteger(concurrency) && concurrency! >= 1 ? concurrency! : 1));
    } catch {
      return 5000;
    }
  }

  return {
    get client() {
      // Sharded (DISCORD_SHARD_COUNT): the client of the lowest shard held, if any.
      const lowest = Math.min(...shardClients.keys());
      return shardClients.get(lowest) ?? client;
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
      const login = logIn(client).then(
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
      await destroyClient(client);
    },
    async stop() {
      stopped = true;
      ready = null;
      destroyed = true;
      await destroyClient(client);
      const all = [...shardClients.values()];
      shardClients.clear();
      await Promise.all(all.map(destroyClient));
    },
    async useShards(shards, shardCount) {
      if (stopped) return;
      // One client per shard: taking or giving back a shard leaves the instance's other shards connected.
      for (const [id, c] of shardClients) {
        if (shards.includes(id)) continue;
        shardClients.delete(id);
        await destroyClient(c);
      }
      if (stopped) return;
      const fresh = shards.filter((id) => !shardClients.has(id));
      for (const id of fresh) shardClients.set(id, buildClient({ shards: [id], shardCount }));
      const registration = fresh.includes(0)
        ? registerCommands().catch((err: unknown) => {
            log.error({ err }, 'could not register the discord slash commands');
            throw err;
          })
        : Promise.resolve();
      const gap = fresh.length > 1 ? await identifyGapMs() : 0;
      // One IDENTIFY after another, as Discord's session_start_limit allows (max_concurrency per 5 s).
      let previous: Promise<unknown> = Promise.resolve();
      for (const id of fresh) {
        const c = shardClients.get(id)!;
        const turn = previous.then(() => (c === shardClients.get(id) ? logIn(c) : null));
        const up = turn.then(
          () => connected(c),
          (err: unknown) => {
            if (!stopped) log.error({ err, shard: id }, 'discord shard login failed; reminders to Discord are still sent over REST');
            throw err;
          },
        );
        shardReady.set(c, up);
        previous = turn.catch(() => {}).then(() => (gap > 0 ? delay(gap) : undefined));
      }
      const all = [...shardClients.values()].map((c) => shardReady.get(c) ?? Promise.resolve());
      ready = shards.length === 0 ? null : Promise.all([registration, ...all]).then(() => undefined);
      if (ready) {
        ready.catch(() => {});
        for (const resolve of waiting) resolve(ready);
        waiting = [];
      }
    },
    get shardClients() {
      return new Map(shardClients);
    },
    async recommendedShards() {
      try {
        const answer = (await client.rest.get(Routes.gatewayBot())) as { shards?: number };
        return Number.isInteger(answer.shards) && answer.shards! >= 1 ? answer.shards! : 1;
      } catch (err) {
        log.warn({ err }, 'could not ask Discord for the recommended shard count; using 1');
        return 1;
      }
    },
    whenReady() {
      if (ready) return ready;
      if (stopped) return Promise.reject(new Error('discord bot stopped'));
      return new Promise<Promise<void>>((resolve) => waiting.push(resolve)).then((r) => r);
    },
  };
}
