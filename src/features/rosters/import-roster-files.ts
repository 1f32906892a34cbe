import type { DbOrTx } from '../../platform/db/database.js';
import { ApiError, validationError } from '../../lib/errors.js';
import { importRoster, MAX_ROSTER_ROWS, type ImportDeps, type ImportMode, type ImportOutcome, type ImportRosterInput } from './import-roster.js';
import { readCanvasFolder } from './read-canvas-folder.js';
import { readOneRosterFolder } from './read-oneroster-folder.js';
import { rosterFromCsvFiles } from './read-roster-folder.js';
import { uploadedFiles } from './roster-export.js';

export interface RosterFile {
  name: string;
  content: string;
}

/** quorum: the CLI's folder of CSVs; oneroster and canvas: those systems' export files (`quorum roster import --format`). */
export const ROSTER_FILE_FORMATS = ['quorum', 'oneroster', 'canvas'] as const;
export type RosterFileFormat = (typeof ROSTER_FILE_FORMATS)[number];

interface ReadFiles {
  payload: Partial<Omit<ImportRosterInput, 'mode' | 'dryRun' | 'maxDropRatio'>>;
  unrecognised: string[];
  /** OneRoster and Canvas: columns the format does not define, and rows read but not imported, with why. */
  ignored: string[];
}

/** The uploaded files read as `quorum roster import` reads a folder of that format; a delta package may only be upserted. */
function readFiles(format: RosterFileFormat, files: RosterFile[], mode: ImportMode, today: string): ReadFiles {
  if (format === 'quorum') return { ...rosterFromCsvFiles(files), ignored: [] };
  const read = format === 'oneroster' ? readOneRosterFolder(uploadedFiles(files), today) : readCanvasFolder(uploadedFiles(files));
  // A delta package lists changes only: a sync would drop everyone it leaves out.
  if (read.kind === 'delta' && mode === 'sync') {
    throw validationError([{ path: 'mode', code: 'invalid_value', message: 'The package is a delta (manifest.csv: file.enrollments=delta): import it with upsert; sync needs bulk files.' }], 'A delta package cannot be synced.');
  }
  const columns = read.unrecognisedColumns.map((column) => `${column} (column not read)`);
  return { payload: read.payload, unrecognised: read.unrecognisedFiles, ignored: [...columns, ...read.ignored] };
}

/**
 * A roster import from uploaded files (the panel), read as `quorum roster import` reads a folder:
 * the CLI's CSVs, or a OneRoster or Canvas export (`format`), then imported. A file that is not
 * readable, or a set of files that is no roster of the format, is VALIDATION_ERROR on `files`;
 * other names are handed back as unrecognised.
 */
export async function importRosterFiles(
  db: DbOrTx,
  deps: ImportDeps,
  input: { companyId: string; mode: ImportMode; dryRun?: boolean; maxDropRatio?: number; format?: RosterFileFormat; files: RosterFile[] },
): Promise<ImportOutcome & { unrecognised: string[]; ignored: string[] }> {
  const { files, format = 'quorum', ...options } = input;
  let read: ReadFiles;
  try {
    read = readFiles(format, files, options.mode, deps.clock.now().toISOString().slice(0, 10));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw validationError([{ path: 'files', code: 'invalid_format', message: (err as Error).message }], format === 'quorum' ? 'A file is not readable as CSV.' : `The files are not a ${format === 'oneroster' ? 'OneRoster' : 'Canvas'} export.`);
  }
  const { enrollments, ...lists } = read.payload;
  if (!enrollments) throw validationError([{ path: 'files', code: 'required', message: 'enrollments.csv is missing: a roster needs it.' }], 'enrollments.csv is missing.');
  // The /v1 body schema's maxItems, for rows that arrive as CSV lines.
  const long = Object.entries(read.payload).find(([, rows]) => rows.length > MAX_ROSTER_ROWS);
  if (long) throw validationError([{ path: 'files', code: 'too_long', message: `${long[0]}: at most ${MAX_ROSTER_ROWS} rows per import.` }], 'A file has too many rows.');
  const outcome = await importRoster(db, deps, { ...options, ...lists, enrollments });
  return { ...outcome, unrecognised: read.unrecognised, ignored: read.ignored };
}
