/**
 * Answers of a pure function by key, for inputs that repeat (the same schedules in every list,
 * one webhook in a whole burst). At most `max` entries: when full it forgets them all at once,
 * cheaper per call than an LRU and enough for these working sets.
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly max: number) {}

  /** The remembered answer for `key`, else `compute()` remembered (nothing is kept if it throws). */
  get(key: string, compute: () => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = compute();
      if (this.entries.size >= this.max) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
