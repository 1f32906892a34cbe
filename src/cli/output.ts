import { CommanderError } from 'commander';
import { ConfigError } from '../platform/config-error.js';
import { ApiError } from '../lib/errors.js';

/** Stable codes of CLI failures for scripts (--json); API errors keep the API's codes. */
export type CliErrorCode = 'USAGE_ERROR' | 'CONFIG_ERROR' | 'NO_DATABASE' | 'NOT_FOUND' | 'INVALID_INPUT' | 'INTERNAL_ERROR';

/** Raised for operator mistakes: printed as one clear line, exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: CliErrorCode = 'INVALID_INPUT',
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export interface OutputOptions {
  json?: boolean;
}

/** Prints a command's result: JSON for scripts with --json, readable text otherwise. */
export function printResult(result: unknown, options: OutputOptions, human: (r: any) => string): void {
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${human(result)}\n`);
}

export interface DescribedError {
  code: string;
  message: string;
  details: unknown;
}

export function describeError(err: unknown): DescribedError {
  if (err instanceof ApiError) {
    const fields = (err.details?.fields as { path: string; message: string }[] | undefined) ?? [];
    // One line per problem with its path; a whole-file problem has the empty path.
    const lines = fields.map((f) => `  ${f.path ? `${f.path}: ` : ''}${f.message}`);
    return { code: err.code, message: [err.message, ...lines].join('\n'), details: err.details };
  }
  if (err instanceof CliError) return { code: err.code, message: err.message, details: err.details };
  if (err instanceof ConfigError) return { code: 'CONFIG_ERROR', message: err.message, details: null };
  // Commander's own message starts with "error: "; its code says which argument rule failed.
  if (err instanceof CommanderError) return { code: 'USAGE_ERROR', message: err.message.replace(/^error: /, ''), details: { reason: err.code } };
  return { code: 'INTERNAL_ERROR', message: err instanceof Error ? err.message : String(err), details: null };
}

/** One line on stderr for people; with --json only the error object, on stdout, so scripts parse one shape. */
export function printError(err: unknown, options: OutputOptions): void {
  const { code, message, details } = describeError(err);
  if (options.json) process.stdout.write(`${JSON.stringify({ error: { code, message, details: details ?? null } })}\n`);
  else process.stderr.write(`error: ${message}\n`);
}

/** Renders rows as an aligned text table. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}
