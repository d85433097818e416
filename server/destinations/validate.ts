import type { DestinationType } from '../db/database.ts';
import { AppError } from '../errors.ts';
import { DESTINATION_MODULES, destinationModule } from './registry.ts';
import type { DestinationMetadata, PreflightDeps, SavedDeps, ValidationContext } from './types.ts';

/** A validated destination; `id` when the client sent back one it already has (keeps its secret). */
export interface DestinationInput {
  id?: string;
  type: DestinationType;
  metadata: DestinationMetadata;
  /** The module's `secretField`: a credential the user gave, or a secret a test send issued (stored in the secret column). */
  secret?: string;
}

export interface RawDestination {
  id?: string | undefined;
  type?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Whether a destination list names a type that needs the account's Discord identity (which costs a read). */
export function needsDiscordIdentity(raw: readonly RawDestination[] | undefined): boolean {
  return (raw ?? []).some((item) => typeof item?.type === 'string' && destinationModule(item.type)?.requiresDiscordIdentity === true);
}

/** Validates a destination list: known types, each module's metadata rules, caps, no duplicates. */
export function parseDestinations(raw: readonly RawDestination[] | undefined, ctx: ValidationContext): DestinationInput[] {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  const out: DestinationInput[] = [];
  for (const [index, item] of (raw ?? []).entries()) {
    const where = `destinations[${index}]`;
    const module = typeof item.type === 'string' ? destinationModule(item.type) : undefined;
    if (!module || module.internal) {
      throw new AppError('INVALID_DESTINATION', `${where}.type must be one of ${DESTINATION_MODULES.filter((m) => !m.internal).map((m) => m.type).join(', ')}`);
    }
    const count = (counts.get(module.type) ?? 0) + 1;
    counts.set(module.type, count);
    if (count > module.cap) {
      throw new AppError('DESTINATION_LIMIT', `A reminder can have at most ${module.cap} ${module.noun} destination${module.cap > 1 ? 's' : ''}`);
    }
    if (module.requiresDiscordIdentity && !ctx.hasDiscordIdentity) throw new AppError('DISCORD_IDENTITY_REQUIRED', 'Connect your Discord account first');
    const metadata = atDestination(index, () => module.parseMetadata(item.metadata ?? {}, where, ctx));
    let secret: string | undefined;
    if (module.secretField && typeof metadata[module.secretField] === 'string') {
      secret = metadata[module.secretField] as string;
      delete metadata[module.secretField];
    }
    const key = `${module.type}:${JSON.stringify(metadata)}`;
    if (seen.has(key)) throw new AppError('INVALID_DESTINATION', `${where} is the same destination as an earlier one`);
    seen.add(key);
    out.push({ ...(item.id ? { id: item.id } : {}), type: module.type, metadata, ...(secret !== undefined ? { secret } : {}) });
  }
  return out;
}

/**
 * Runs each module's I/O checks (Discord permissions...) in order; the first failure is thrown,
 * with `destination` (its index) in the details so the dashboard can say which one failed.
 */
export async function preflightDestinations(
  deps: PreflightDeps,
  accountId: string,
  destinations: DestinationInput[],
  /** The stored destinations of an update: one sent back without its credential is checked with the stored one. */
  stored: ReadonlyArray<{ id: string; type: string; secret: string | null }> = [],
): Promise<void> {
  for (const [index, d] of destinations.entries()) {
    const module = destinationModule(d.type);
    const secret = d.secret ?? stored.find((s) => s.id === d.id && s.type === d.type)?.secret ?? null;
    if (module?.preflight) await atDestinationAsync(index, () => module.preflight!(deps, accountId, d.metadata, secret));
  }
}

/** Tells each saved destination's module that it is saved (DestinationModule.onSaved). */
export function destinationsSaved(deps: SavedDeps, accountId: string, destinations: ReadonlyArray<Pick<DestinationInput, 'type' | 'metadata'>>): void {
  for (const d of destinations) destinationModule(d.type)?.onSaved?.(deps, accountId, d.metadata);
}

/** The AppError `fn` throws, with the index of the destination at fault in its details. */
function annotate(index: number, err: unknown): unknown {
  if (!(err instanceof AppError) || err.details?.destination !== undefined) return err;
  const annotated = new AppError(err.code, err.message, err.status, { ...err.details, destination: index });
  annotated.stack = err.stack;
  return annotated;
}

function atDestination<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw annotate(index, err);
  }
}

async function atDestinationAsync<T>(index: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw annotate(index, err);
  }
}

/** Display label of a stored destination (logs, the delivery problems list). */
export function destinationLabel(type: string, metadataJson: string): string {
  const module = destinationModule(type);
  if (!module) return type;
  let metadata: DestinationMetadata = {};
  try {
    metadata = JSON.parse(metadataJson) as DestinationMetadata;
  } catch {
    /* the plain label below */
  }
  return module.label(metadata);
}
