import { ApiError } from '../lib/errors.js';

/** Raised for operator mistakes: printed as one clear line, exit code 1. */
export class CliError extends Error {}

export interface OutputOptions {
  json?: boolean;
}

/** Prints a command's result: JSON for scripts with --json, readable text otherwise. */
export function printResult(result: unknown, options: OutputOptions, human: (r: any) => string): void {
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${human(result)}\n`);
}

export function describeError(err: unknown): { message: string; details?: unknown } {
  if (err instanceof ApiError) {
    const fields = (err.details?.fields as { path: string; message: string }[] | undefined) ?? [];
    // One line per problem with its path; a whole-file problem has the empty path.
    const lines = fields.map((f) => `  ${f.path ? `${f.path}: ` : ''}${f.message}`);
    return { message: [err.message, ...lines].join('\n'), details: err.details };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

export function printError(err: unknown, options: OutputOptions): void {
  const { message, details } = describeError(err);
  if (options.json) process.stdout.write(`${JSON.stringify({ error: { message, details: details ?? null } })}\n`);
  process.stderr.write(`error: ${message}\n`);
}

/** Renders rows as an aligned text table. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}
