import type { DbOrTx } from '../../platform/db/database.js';
import { validationError } from '../../lib/errors.js';
import { importRoster, MAX_ROSTER_ROWS, type ImportDeps, type ImportMode, type ImportOutcome } from './import-roster.js';
import { rosterFromCsvFiles } from './read-roster-folder.js';

export interface RosterFile {
  name: string;
  content: string;
}

/**
 * A roster import from the CSV files of the CLI's folder, uploaded one by one (the panel): read as
 * `quorum roster import DIR` reads them, then imported. A file that is not CSV, or no
 * enrollments.csv, is VALIDATION_ERROR on `files`; other names are handed back as unrecognised.
 */
export async function importRosterFiles(
  db: DbOrTx,
  deps: ImportDeps,
  input: { companyId: string; mode: ImportMode; dryRun?: boolean; maxDropRatio?: number; files: RosterFile[] },
): Promise<ImportOutcome & { unrecognised: string[] }> {
  const { files, ...options } = input;
  let read: ReturnType<typeof rosterFromCsvFiles>;
  try {
    read = rosterFromCsvFiles(files);
  } catch (err) {
    throw validationError([{ path: 'files', code: 'invalid_format', message: (err as Error).message }], 'A file is not readable as CSV.');
  }
  const { enrollments, ...lists } = read.payload;
  if (!enrollments) throw validationError([{ path: 'files', code: 'required', message: 'enrollments.csv is missing: a roster needs it.' }], 'enrollments.csv is missing.');
  // The /v1 body schema's maxItems, for rows that arrive as CSV lines.
  const long = Object.entries(read.payload).find(([, rows]) => rows.length > MAX_ROSTER_ROWS);
  if (long) throw validationError([{ path: 'files', code: 'too_long', message: `${long[0]}: at most ${MAX_ROSTER_ROWS} rows per import.` }], 'A file has too many rows.');
  const outcome = await importRoster(db, deps, { ...options, ...lists, enrollments });
  return { ...outcome, unrecognised: read.unrecognised };
}
