/**
 * Names for the statements a process sends again and again, so that PostgreSQL parses and plans
 * each once per connection instead of on every call. Sent unnamed, the mixed-load benchmark's
 * statements spent as long being planned as being run (bench/RESULTS.md "mixed-postgres").
 *
 * A named statement is session state: behind PgBouncer in transaction mode it needs
 * `max_prepared_statements` (PgBouncer 1.21 or later), or DATABASE_PREPARED_STATEMENTS=false
 * (docs/operations.md "Running on PostgreSQL").
 *
 * Bounded both ways: a text gets a name on its second use (one-off texts, such as an `in (...)`
 * list of an unusual length, never do), and a process names at most MAX_NAMED texts; each
 * connection then holds at most that many prepared statements, freed when it closes.
 */

/** Distinct statements a process prepares at most. Chime's hot paths use a few dozen. */
const MAX_NAMED = 300;
/** Texts seen once, remembered until a second use; forgotten all at once beyond this. */
const MAX_SEEN_ONCE = 5000;

/** Only plannable statements with parameters: not `begin`, `set ...`, DDL or raw maintenance. */
const PLANNABLE = /^\s*(select|insert|update|delete|with)\b/i;

export class StatementNames {
  private readonly named = new Map<string, string>();
  private readonly seenOnce = new Set<string>();

  constructor(
    private readonly maxNamed = MAX_NAMED,
    private readonly maxSeenOnce = MAX_SEEN_ONCE,
  ) {}

  /** The name to prepare `text` under, or undefined to send it unnamed this time. */
  nameFor(text: string, parameterCount: number): string | undefined {
    const name = this.named.get(text);
    if (name !== undefined) return name;
    if (parameterCount === 0 || this.named.size >= this.maxNamed || !PLANNABLE.test(text)) return undefined;
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size >= this.maxSeenOnce) this.seenOnce.clear();
      this.seenOnce.add(text);
      return undefined;
    }
    this.seenOnce.delete(text);
    const next = `chime_${this.named.size + 1}`;
    this.named.set(text, next);
    return next;
  }
}

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed since it was
 * prepared (a migration applied by another instance added a column to a `select *`): SQLSTATE
 * 0A000, "cached plan must not change result type".
 */
export function isStalePreparedStatement(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && /cached plan must not change result type/i.test(e.message);
}
