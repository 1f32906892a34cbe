import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { parseDay, parseInstant } from '../lib/date-time.js';
import { CliError } from './output.js';

/** An option's day, read as the API reads one (src/lib/date-time.ts). */
export function dayArgument(value: string): string {
  const day = parseDay(value);
  if (day === null) throw new InvalidArgumentError('must be a day YYYY-MM-DD');
  return day;
}

/** An option's time, read as the API reads one: RFC 3339 with a zone. */
export function instantArgument(value: string): Date {
  const at = parseInstant(value);
  if (at === null) throw new InvalidArgumentError('must be an RFC 3339 time with a zone, e.g. 2026-03-01T12:00:00Z');
  return at;
}

/** Postgres text and jsonb cannot hold U+0000: refused here with its place, not later as a database failure. */
function refuseNul(file: string, text: string, what: string): void {
  const at = text.indexOf('\u0000');
  if (at === -1) return;
  const line = text.slice(0, at).split('\n').length;
  throw new CliError(`${file} contains a NUL character (${what}, line ${line}); remove it and try again`);
}

/** The text of an input file; a missing or unreadable file is one clear line. */
export function readInputFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
  refuseNul(file, text, 'a zero byte');
  return text;
}

export function readJsonFile(file: string): unknown {
  const text = readInputFile(file);
  // JSON may also spell it as an escape inside a string.
  refuseNul(file, text.replace(/\\u0000/gi, '\u0000'), 'written \\u0000');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** A whole number option (commander argParser); its bounds are the service's to check. */
export function wholeNumberArgument(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}
