/**
 * Messages between the API thread and the scheduler's worker thread. Structured-clone data only:
 * no functions, so senders are built on the worker's side (see sender-deps.ts).
 */
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { Config } from '../../config.ts';
import type { SchedulerTuning } from '../plugin.ts';

export interface WorkerData {
  config: Config;
  /** Which of the DELIVERY_THREADS threads this is (0 runs the retention sweep). */
  index: number;
  tuning: Partial<SchedulerTuning>;
}

export type SchedulerStats = { active: number; queued: number; known: number; pendingResults: number; timerAt: number };

/** Calls that answer (`id` pairs the answer with its call). */
export type WorkerCall =
  | { kind: 'tick' }
  | { kind: 'drain'; timeoutMs?: number | undefined }
  | { kind: 'runOnce' }
  | { kind: 'prune' }
  | { kind: 'metrics' };

export type ToWorker =
  /** The settings of a thread started before them (thread-entry.ts): its first message. */
  | { type: 'start'; data: WorkerData }
  /** earliestMs: the write's WakeHint (wake-hint.ts). */
  | { type: 'wake'; earliestMs?: number | null | undefined }
  | { type: 'destinationEnabled'; destinationId: string }
  | { type: 'setOptions'; options: Partial<SchedulerTuning> }
  | { type: 'call'; id: number; call: WorkerCall }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'log'; level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'; bindings: Record<string, unknown>; obj: unknown; msg: string | undefined }
  | { type: 'stats'; stats: SchedulerStats }
  | { type: 'result'; id: number; ok: true; value: number | MetricObjectWithValues<MetricValue<string>>[] | null }
  | { type: 'result'; id: number; ok: false; error: string }
  /** More is due than one claim takes: the pool may start more threads (at most one a second). */
  | { type: 'backlog' }
  /** The last message: what the thread counted, so /metrics keeps it after the thread is gone. */
  | { type: 'stopped'; metrics: MetricObjectWithValues<MetricValue<string>>[] };
