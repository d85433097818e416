/**
 * A Fastify-compatible logger for the worker thread that hands every line to the API thread's
 * logger: one log stream, with the app's level, redaction and serializers.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FromWorker } from './protocol.ts';

type Level = Extract<FromWorker, { type: 'log' }>['level'];
const LEVELS: Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
const RANK: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/** Errors are cloned without their own fields (code...): keep what the log needs as plain data. */
function cloneable(value: unknown): unknown {
  if (value instanceof Error) return { type: value.name, message: value.message, stack: value.stack, ...(value as object) };
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = v instanceof Error ? cloneable(v) : v;
    return out;
  }
  return value;
}

export function bridgeLogger(post: (message: FromWorker) => void, level: string, bindings: Record<string, unknown> = {}): FastifyBaseLogger {
  const threshold = RANK[level] ?? RANK.info!;
  const logger = {
    level,
    silent: () => undefined,
    child(more: Record<string, unknown>) {
      return bridgeLogger(post, level, { ...bindings, ...more });
    },
  } as unknown as FastifyBaseLogger & Record<Level, (obj: unknown, msg?: string) => void>;
  for (const name of LEVELS) {
    logger[name] = (obj: unknown, msg?: string) => {
      if (RANK[name]! < threshold) return;
      try {
        post({ type: 'log', level: name, bindings, obj: typeof obj === 'string' ? {} : cloneable(obj), msg: typeof obj === 'string' ? obj : msg });
      } catch {
        post({ type: 'log', level: name, bindings, obj: {}, msg: `${msg ?? ''} (details could not be passed from the scheduler thread)` });
      }
    };
  }
  return logger;
}
