/**
 * A round of work every `everyMs`, each one after the previous has ended (a slow database never
 * runs two at once), from start() until stop(). Leader election (leadership.ts) and the gateway's
 * shard leases (server/coordination/shard-leases.ts) renew their leases this way.
 */
export class SerialRounds {
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(
    private readonly everyMs: number,
    private readonly round: () => Promise<void>,
  ) {}

  /** True once stopped: a round under way checks it before acting on what it read. */
  get stopped(): boolean {
    return this.ended;
  }

  /** The first round now, then one every everyMs. Nothing once stopped. */
  start(): void {
    if (this.timer || this.ended) return;
    const tick = () => this.enqueue(this.round);
    tick();
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
  }

  /** Runs `work` after what is queued so far, never beside a round. */
  enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work);
  }

  /** No round starts from now on; the one under way goes on (idle() waits for it). */
  stop(): void {
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves once the work queued so far has ended. */
  idle(): Promise<void> {
    return this.queue;
  }
}
