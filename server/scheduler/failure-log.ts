/**
 * While the database is out (PostgreSQL restarting, a full disk, a lock held for minutes) the loop
 * retries every second, and each retry used to log its error: hundreds of identical lines a minute
 * per thread. Here the first failure of a kind is logged with its error, then one line a minute
 * with how many followed, and one line when it works again, so the log tells when an outage began,
 * that it goes on, and when it ended.
 */
export interface FailureLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** A failure goes on: how often it is logged again. */
export const STILL_FAILING_EVERY_MS = 60_000;

interface Streak {
  since: number;
  failures: number;
  loggedAt: number;
}

export class FailureLog {
  private readonly streaks = new Map<string, Streak>();

  constructor(
    private readonly log: FailureLogger,
    private readonly now: () => number,
    /** Called on every failure, logged or not (the scheduler's error counter in /metrics). */
    private readonly counted: () => void = () => {},
  ) {}

  /**
   * `what` (e.g. "scheduler: reading the outbox") failed: "<what> failed" is logged if this is the
   * first failure of its streak or a minute after the last line, else only counted.
   */
  failed(what: string, err: unknown, extra: object = {}): void {
    this.counted();
    const now = this.now();
    const streak = this.streaks.get(what);
    if (!streak) {
      this.streaks.set(what, { since: now, failures: 1, loggedAt: now });
      this.log.error({ ...extra, err }, `${what} failed`);
      return;
    }
    streak.failures++;
    if (now - streak.loggedAt < STILL_FAILING_EVERY_MS) return;
    streak.loggedAt = now;
    this.log.error({ ...extra, err, failures: streak.failures, failingForMs: now - streak.since }, `${what} failed (still failing)`);
  }

  /** `what` worked: ends its streak, and logs "<what> works again" if it had failed. */
  succeeded(what: string): void {
    const streak = this.streaks.get(what);
    if (!streak) return;
    this.streaks.delete(what);
    this.log.info({ failures: streak.failures, failedForMs: this.now() - streak.since }, `${what} works again`);
  }
}
