/**
 * What an administration subcommand answers: readable text for a person and the same facts as
 * data for `--json`. Exit codes (docs/operations.md "Administration"): 0 done, 1 nothing done or a check
 * failed, 2 bad usage.
 */
export interface CommandResult {
  exitCode: 0 | 1 | 2;
  text: string;
  data: unknown;
}

export const done = (text: string, data: unknown): CommandResult => ({ exitCode: 0, text, data });

/** Thrown by a subcommand that did nothing: the message says why and what to do. */
export class AdminFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
    readonly code = 'FAILED',
  ) {
    super(message);
    this.name = 'AdminFailure';
  }
}

/** Aligned columns for listings. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
