/**
 * Equal CPU quotas per process with the cgroup v1 `cpu` controller, so that instances sharing one
 * machine behave like instances on small machines of their own (bench/scale-out.ts). Each process
 * gets its own group /sys/fs/cgroup/cpu/chime-bench-<run>-<i> with cpu.cfs_quota_us per
 * cpu.cfs_period_us (100,000 µs); whatever is not put in a group (PostgreSQL, the sink, the load
 * generator) runs outside the quotas. Needs root and cgroup v1; `cpuQuotas` says why not otherwise.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;

export interface CpuGroup {
  name: string;
  /** Moves a process (all its threads) into the group; throws if a thread stayed out. */
  add(pid: number): void;
  /** Throttling so far: periods in which the group hit its quota, and the time it waited. */
  throttled(): { periods: number; throttled_periods: number; throttled_ms: number };
  /** Moves what is left back to the root group and removes the group. */
  remove(): Promise<void>;
}

export interface CpuQuotas {
  quotaUs: number;
  periodUs: number;
  create(index: number): CpuGroup;
}

/** A factory of groups with `quotaUs` per 100 ms each, or why there can be none (one line). */
export function cpuQuotas(quotaUs: number): CpuQuotas | { unavailable: string } {
  if (!existsSync(path.join(ROOT, 'cpu.cfs_quota_us'))) return { unavailable: `no cgroup v1 cpu controller at ${ROOT} (cgroup v2 only, or not mounted)` };
  if (process.getuid?.() !== 0) return { unavailable: `cgroups at ${ROOT} need root` };
  const run = randomBytes(3).toString('hex');
  try {
    // A probe: a read-only mount (a container) fails here rather than in the middle of a run.
    const probe = path.join(ROOT, `chime-bench-${run}-probe`);
    mkdirSync(probe);
    rmdirSync(probe);
  } catch (error) {
    return { unavailable: `cannot create a group under ${ROOT}: ${(error as Error).message}` };
  }
  return {
    quotaUs,
    periodUs: PERIOD_US,
    create(index) {
      const dir = path.join(ROOT, `chime-bench-${run}-${index}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
      const tasks = () => readFileSync(path.join(dir, 'tasks'), 'utf8').split('\n').filter(Boolean);
      return {
        name: path.basename(dir),
        add(pid) {
          // cgroup.procs moves the whole thread group; `tasks` lists every thread that is in.
          writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
          const threads = readdirSync(`/proc/${pid}/task`);
          const inside = new Set(tasks());
          const outside = threads.filter((t) => !inside.has(t));
          if (outside.length) throw new Error(`${outside.length} of ${threads.length} threads of ${pid} stayed outside ${dir}`);
        },
        throttled() {
          const stat = Object.fromEntries(
            readFileSync(path.join(dir, 'cpu.stat'), 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => l.split(' ') as [string, string]),
          );
          return { periods: Number(stat.nr_periods), throttled_periods: Number(stat.nr_throttled), throttled_ms: Math.round(Number(stat.throttled_time) / 1e6) };
        },
        async remove() {
          for (const pid of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
            try {
              writeFileSync(path.join(ROOT, 'cgroup.procs'), pid);
            } catch {
              /* exited meanwhile */
            }
          }
          // A process that just exited may stay listed for a moment: rmdir fails with EBUSY until then.
          for (let attempt = 0; ; attempt++) {
            try {
              rmdirSync(dir);
              return;
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
              if (attempt >= 50) throw error;
              await new Promise((r) => setTimeout(r, 100));
            }
          }
        },
      };
    },
  };
}
