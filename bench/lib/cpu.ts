import { readdirSync, readFileSync } from 'node:fs';

// Linux only (/proc). USER_HZ is 100 on Linux: one tick is 10 ms.
const TICK_MS = 10;

/** CPU time (user + system) a process has used, in ms. */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * CPU time the whole machine has spent busy (every process and the kernel, all cores), in ms.
 * Counts what per-process figures miss: the database server's backends, which come and go.
 */
export function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = ticks.map(Number);
  return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * TICK_MS;
}

/** 1-minute load average: figures are only comparable on an otherwise idle machine. */
export const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/**
 * CPU time of the PostgreSQL backends serving database `name` (their process title names it), in
 * ms by pid: what one run's database work costs, apart from other databases on the same server and
 * other work on the machine. Backends that exit in between are missed: compare while pools stay open.
 */
export function postgresBackendsCpuMs(name: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${name} `)) found.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}
