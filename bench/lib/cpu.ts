import { readFileSync } from 'node:fs';

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
