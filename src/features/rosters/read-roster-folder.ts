/**
 * A roster as a folder of CSV files in OneRoster-like columns, read into the payload of
 * POST /enrollments/import. Every file is optional but enrollments.csv:
 *   people.csv        externalId,name,email,phone
 *   class_groups.csv  code,name,startsOn,endsOn
 *   classes.csv       code,name,classGroupCode,courseCode,orgUnitCode,teacherCodes (codes separated by ; or spaces)
 *   enrollments.csv   externalId,classCode,status
 * Headers in any order, case-insensitive; OneRoster's sourcedId is read as externalId (people) and
 * code (the others). Cells are trimmed; an empty cell is an omitted field (the stored value stays).
 * Any other entry of the folder (but dotfiles) is named back as unrecognised: a file exported under
 * another name would otherwise be skipped in silence.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

const FILES = {
  people: { file: 'people.csv', columns: ['externalId', 'name', 'email', 'phone'], sourcedId: 'externalId' },
  classGroups: { file: 'class_groups.csv', columns: ['code', 'name', 'startsOn', 'endsOn'], sourcedId: 'code' },
  classes: { file: 'classes.csv', columns: ['code', 'name', 'classGroupCode', 'courseCode', 'orgUnitCode', 'teacherCodes'], sourcedId: 'code' },
  enrollments: { file: 'enrollments.csv', columns: ['externalId', 'classCode', 'status'], sourcedId: null },
} as const;

type List = keyof typeof FILES;

function readCsv(text: string, columns: readonly string[], sourcedId: string | null): Record<string, unknown>[] {
  const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const byLowerName = new Map(columns.map((c) => [c.toLowerCase(), c]));
  if (sourcedId) byLowerName.set('sourcedid', sourcedId);
  return records.map((record) => {
    const row: Record<string, unknown> = {};
    for (const [header, value] of Object.entries(record)) {
      const field = byLowerName.get(header.toLowerCase());
      if (field && value !== '') row[field] = field === 'teacherCodes' ? value.split(/[;\s]+/).filter(Boolean) : value;
    }
    return row;
  });
}

export interface RosterFolder {
  payload: Partial<Record<List, Record<string, unknown>[]>> & { enrollments: Record<string, unknown>[] };
  /** Names of the folder's entries that are none of the four files, sorted. */
  unrecognised: string[];
}

const KNOWN = new Set<string>(Object.values(FILES).map((spec) => spec.file));

/**
 * The payload lists of a roster's CSV files given by name (a folder, or files uploaded to the panel)
 * and the names that are none of the four; `enrollments` is absent when enrollments.csv is. A file
 * that is not CSV throws csv-parse's error.
 */
export function rosterFromCsvFiles(files: ReadonlyArray<{ name: string; content: string }>): { payload: Partial<RosterFolder['payload']>; unrecognised: string[] } {
  const payload: Partial<Record<List, Record<string, unknown>[]>> = {};
  for (const [list, spec] of Object.entries(FILES) as Array<[List, (typeof FILES)[List]]>) {
    const file = files.find((f) => f.name === spec.file);
    try {
      if (file) payload[list] = readCsv(file.content, spec.columns, spec.sourcedId);
    } catch (err) {
      throw new Error(`${spec.file}: ${(err as Error).message}`);
    }
  }
  const unrecognised = files.map((f) => f.name).filter((name) => !KNOWN.has(name) && !name.startsWith('.')).sort();
  return { payload, unrecognised };
}

/** The payload lists found in the folder and what else it holds; throws when enrollments.csv is missing. */
export function readRosterFolder(dir: string): RosterFolder {
  const files = readdirSync(dir).map((name) => ({ name, content: KNOWN.has(name) ? readFileSync(join(dir, name), 'utf8') : '' }));
  const { payload, unrecognised } = rosterFromCsvFiles(files);
  if (!payload.enrollments) {
    const others = unrecognised.length > 0 ? ` (unrecognised: ${unrecognised.join(', ')})` : '';
    throw new Error(`${join(dir, FILES.enrollments.file)} is missing: a roster folder needs enrollments.csv${others}`);
  }
  return { payload: payload as RosterFolder['payload'], unrecognised };
}
