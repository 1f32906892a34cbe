import { readFileSync } from 'node:fs';
import { CliError } from './output.js';

/** The text of an input file; a missing or unreadable file is one clear line. */
export function readInputFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

export function readJsonFile(file: string): unknown {
  const text = readInputFile(file);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}
