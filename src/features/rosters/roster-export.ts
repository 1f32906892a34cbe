import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportRosterInput } from './import-roster.js';
import type { RosterFile } from './import-roster-files.js';
import { readCsvTable, type CsvTable } from './read-csv-table.js';

/** A school system's export (OneRoster, Canvas) read into the import's payload, with what it left unread. */
export interface RosterExport {
  payload: Omit<ImportRosterInput, 'mode' | 'dryRun' | 'maxDropRatio'>;
  /** bulk: the files hold the whole roster, so a sync may drop what they leave out; delta: changes only. */
  kind: 'bulk' | 'delta';
  /** Files of the folder that were not read, sorted. */
  unrecognisedFiles: string[];
  /** Columns no file of the format defines: `users.csv: shoeSize`. */
  unrecognisedColumns: string[];
  /** Rows read but not imported, and why: `enrollments.csv: 2 row(s) with role aide`. */
  ignored: string[];
}

/** The files of an export: a folder on disk (the CLI) or files uploaded together (the panel). */
export interface ExportFiles {
  /** How messages name them: the folder's path, or "the uploaded files". */
  label: string;
  names: string[];
  text(name: string): string;
}

export function folderFiles(dir: string): ExportFiles {
  return { label: dir, names: readdirSync(dir), text: (name) => readFileSync(join(dir, name), 'utf8') };
}

export function uploadedFiles(files: RosterFile[]): ExportFiles {
  const byName = new Map(files.map((file) => [file.name, file.content]));
  return { label: 'the uploaded files', names: [...byName.keys()], text: (name) => byName.get(name)! };
}

/** The CSV files a format defines, found by name in any case; every other entry (but dotfiles) is unrecognised. */
export class ExportFolder {
  private readonly byLowerName: Map<string, string>;
  readonly unrecognisedColumns: string[] = [];
  readonly unrecognisedFiles: string[];
  readonly label: string;

  constructor(
    private readonly files: ExportFiles,
    private readonly formatFiles: Record<string, readonly string[]>,
  ) {
    this.label = files.label;
    const entries = files.names.filter((name) => !name.startsWith('.'));
    const known = new Set(Object.keys(formatFiles).map((name) => name.toLowerCase()));
    this.byLowerName = new Map(entries.filter((name) => known.has(name.toLowerCase())).map((name) => [name.toLowerCase(), name]));
    this.unrecognisedFiles = entries.filter((name) => !known.has(name.toLowerCase())).sort();
  }

  has(file: string): boolean {
    return this.byLowerName.has(file.toLowerCase());
  }

  /** The file's rows by the format's column names (none when the file is absent); unknown columns are noted. */
  read(file: string): CsvTable['rows'] {
    const name = this.byLowerName.get(file.toLowerCase());
    if (!name) return [];
    const table = readCsvTable(this.files.text(name), this.formatFiles[file]);
    for (const column of table.unknownColumns) this.unrecognisedColumns.push(`${file}: ${column}`);
    return table.rows;
  }
}

/** `2026-02-01`, `2026-02-01T00:00:00Z` or `2026-2-1 00:00:00` → `2026-02-01`; anything else is left for the import to refuse. */
export function dayOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(value);
  return match ? `${match[1]}-${match[2].padStart(2, '0')}-${match[3].padStart(2, '0')}` : value;
}

/** Counts of rows left out, worded per file and reason. */
export class IgnoredRows {
  private readonly counts = new Map<string, number>();
  add(file: string, reason: string): void {
    const key = `${file}: row(s) ${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  list(): string[] {
    return [...this.counts].map(([key, n]) => key.replace(': row(s)', `: ${n} row(s)`)).sort();
  }
}
