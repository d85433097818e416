import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  Client,
  ClientEvents,
  MessageContextMenuCommandInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';

export interface BotContext {
  app: FastifyInstance;
  client: Client;
  log: FastifyBaseLogger;
}

/** One slash command: `bot/commands/<name>.ts`. */
export interface BotCommand {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void>;
}

/**
 * One message context-menu command (Apps > ... on a message): `bot/commands/<name>.ts` too. Its
 * first answer is usually a modal, which cannot follow a deferral: execute must not wait on the
 * database before showing it.
 */
export interface BotMessageCommand {
  data: { name: string; toJSON(): RESTPostAPIContextMenuApplicationCommandsJSONBody };
  execute(interaction: MessageContextMenuCommandInteraction, ctx: BotContext): Promise<void>;
}

/** A submitted modal: its custom id is `<prefix>:<...state>`, like a button's. */
export interface BotModal {
  prefix: string;
  execute(interaction: ModalSubmitInteraction, ctx: BotContext): Promise<void>;
}

/**
 * Buttons: the custom id is `<prefix>:<...state>`; everything a handler needs is in the custom id
 * and the database, so buttons keep working after a restart.
 */
export interface BotComponent {
  prefix: string;
  execute(interaction: ButtonInteraction, ctx: BotContext): Promise<void>;
}

/** One gateway event: `bot/events/<name>.ts`. */
export interface BotEvent<K extends keyof ClientEvents = keyof ClientEvents> {
  name: K;
  once?: boolean;
  execute(ctx: BotContext, ...args: ClientEvents[K]): Promise<void> | void;
}
