import { type Compilable, type CompiledQuery, type QueryResult } from 'kysely';
import type { Executor } from './executor.ts';

/**
 * A query whose shape never changes, built and compiled by Kysely once per dialect instead of on
 * every call. The hottest point lookups (the session of every request, an account's list version)
 * cost more to build and compile (about 6 µs) than SQLite takes to run them.
 *
 * `build` gets placeholders where the values go; each call swaps its values in. A placeholder is
 * a string with a NUL in it, which no value from a request can hold (plugins/no-nul-text.ts).
 */
export function prepared<P extends Record<string, string | number | null>, R>(names: readonly (keyof P & string)[], build: (db: Executor, values: P) => Compilable<R>) {
  const placeholders = Object.fromEntries(names.map((name) => [name, `\u0000${name}\u0000`])) as P;
  const slots = new Map<unknown, keyof P>(names.map((name) => [placeholders[name], name]));
  // One compiled query per adapter class: SQLite and PostgreSQL write different SQL.
  const compiled = new Map<unknown, CompiledQuery<R>>();

  return (db: Executor, values: P): Promise<QueryResult<R>> => {
    const adapter = db.getExecutor().adapter.constructor;
    let query = compiled.get(adapter);
    if (!query) {
      query = build(db, placeholders).compile();
      const missing = names.filter((name) => !query!.parameters.includes(placeholders[name]));
      if (missing.length > 0) throw new Error(`prepared query: ${missing.join(', ')} not bound as parameters`);
      compiled.set(adapter, query);
    }
    const parameters = query.parameters.map((p) => {
      const slot = slots.get(p);
      return slot === undefined ? p : values[slot];
    });
    return db.executeQuery<R>({ ...query, parameters });
  };
}
