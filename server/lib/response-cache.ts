/**
 * Serialized responses keyed by an id, valid while the database's change token is the same.
 * Bounded by total size, least recently used evicted first.
 */
export class ResponseCache {
  private entries = new Map<string, { token: string; body: string }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  get(key: string, token: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.token !== token) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.body;
  }

  set(key: string, token: string, body: string): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    if (body.length > this.maxBytes / 4) return;
    this.entries.set(key, { token, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }
}
