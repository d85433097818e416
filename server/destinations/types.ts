/**
 * A destination type is one module (one folder here): its metadata validation, caps, label,
 * preflight check and sender. The reminders service and the scheduler know only this interface;
 * `registry.ts` lists the modules. Adding a type = a new folder + one line in registry.ts +
 * locales + its web form.
 */
import type { FastifyInstance } from 'fastify';
import type { DestinationType } from '../db/database.ts';
import type { DestinationSender } from '../scheduler/types.ts';

export type DestinationMetadata = Record<string, unknown>;

/** What validation may depend on besides the metadata itself. */
export interface ValidationContext {
  /** The account has a linked Discord identity. */
  hasDiscordIdentity: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: the SSRF guard is off. */
  allowPrivateWebhookTargets: boolean;
}

/** What a preflight check may use: it only checks, so nothing that sends. */
export type PreflightDeps = Pick<FastifyInstance, 'db' | 'config' | 'discord' | 'log'>;

/** What `onSaved` may use: the mail service (email confirmations) when the caller has it. */
export type SavedDeps = Pick<FastifyInstance, 'db' | 'config' | 'log'> & Partial<Pick<FastifyInstance, 'mail'>>;

/**
 * What a sender may use. The API thread passes the app itself; the scheduler's worker thread
 * builds the same services on its own database connection (server/scheduler/sender-deps.ts). A
 * module whose sender needs another service adds its key here and builds it there.
 */
export type SenderDeps = Pick<FastifyInstance, 'db' | 'config' | 'log' | 'discord'>;

export interface DestinationModule {
  type: DestinationType;
  /** At most this many destinations of the type on one reminder. */
  cap: number;
  /** English noun for the cap message ("webhook" -> "at most 5 webhook destinations"). */
  noun: string;
  /** Only accounts with a linked Discord identity may use the type. */
  requiresDiscordIdentity: boolean;
  /**
   * Made by the server itself (a "Remind me too" subscription), never part of a reminder's
   * destination list as its owner reads or saves it: a client sending the type is refused.
   */
  internal?: boolean;
  /**
   * Client metadata -> what is stored. Throws AppError (a 4xx with a code); `where` names the
   * destination in messages ("destinations[1]").
   */
  parseMetadata(raw: DestinationMetadata, where: string, ctx: ValidationContext): DestinationMetadata;
  /**
   * Checks that need I/O before a reminder is saved (Discord permissions); throws AppError. May
   * add display fields to the metadata (channel names). Synchronous policy checks (URL, SSRF)
   * belong in parseMetadata.
   */
  preflight?(deps: PreflightDeps, accountId: string, metadata: DestinationMetadata, secret: string | null): Promise<void>;
  /**
   * What a saved destination sets off (an email address's confirmation link), called once the
   * reminder holding it is committed, never for a check or a save that failed. In the background:
   * it must not fail or slow the save.
   */
  onSaved?(deps: SavedDeps, accountId: string, metadata: DestinationMetadata): void;
  /**
   * The metadata field holding a credential the user gives (an ntfy access token, a Gotify
   * application token) or a signing secret a test send issued (a webhook's): parseMetadata validates
   * it, then it is moved to the destination's secret column. The API never answers a credential; a
   * secret of a type that issues them is answered once, by the save. A destination sent back
   * without it keeps its stored one.
   */
  secretField?: string;
  /** Issues a signing secret for each new destination of the type (shown once). */
  issueSecret?(): string;
  /** Short English label for logs and the delivery problems list. */
  label(metadata: DestinationMetadata): string;
  /**
   * The sender the scheduler registers for the type, or null when this server cannot deliver it
   * (Discord without settings): deliveries then fail with a clear reason instead of hanging.
   * Called in the scheduler's worker thread (deliveries) and in the API's thread (test sends):
   * it may use only what SenderDeps holds, never other parts of the Fastify app.
   */
  createSender?(deps: SenderDeps): DestinationSender | null;
}
