/**
 * A roster as a folder of CSV files in OneRoster-like columns, read into the payload of
 * POST /enrollments/import. Every file is optional but enrollments.csv:
 *   people.csv        externalId,name,email,phone
 *   class_groups.csv  code,name,startsOn,endsOn
 *   classes.csv       code,name,classGroupCode,courseCode,orgUnitCode,teacherCodes (codes separated by ; or spaces)
 *   enrollments.csv   externalId,classCode,status
 * Headers in any order, case-insensitive; OneRoster's sourcedId is read as externalId (people) and
 * code (the others). Cells are trimmed; an empty cell is an omitted field (the stored value stays).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

const FILES = {
  people: { file: 'people.csv', columns: ['externalId', 'name', 'email', 'phone'], sourcedId: 'externalId' },
  classGroups: { file: 'class_groups.csv', columns: ['code', 'name', 'startsOn', 'endsOn'], sourcedId: 'code' },
  classes: { file: 'classes.csv', columns: ['code', 'name', 'classGroupCode', 'courseCode', 'orgUnitCode', 'teacherCodes'], sourcedId: 'code' },
  enrollments: { file: 'enrollments.csv', columns: ['externalId', 'classCode', 'status'], sourcedId: null },
} as const;

type List = keyof typeof FILES;

function readCsv(path: string, columns: readonly string[], sourcedId: string | null): Record<string, unknown>[] {
  const records = parse(readFileSync(path, 'utf8'), { bom: true, columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
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

/** The payload lists found in the folder; throws when enrollments.csv is missing. */
export function readRosterFolder(dir: string): Partial<Record<List, Record<string, unknown>[]>> & { enrollments: Record<string, unknown>[] } {
  const payload: Partial<Record<List, Record<string, unknown>[]>> = {};
  for (const [list, spec] of Object.entries(FILES) as Array<[List, (typeof FILES)[List]]>) {
    const path = join(dir, spec.file);
    if (existsSync(path)) payload[list] = readCsv(path, spec.columns, spec.sourcedId);
  }
  if (!payload.enrollments) throw new Error(`${join(dir, FILES.enrollments.file)} is missing: a roster folder needs enrollments.csv`);
  return payload as ReturnType<typeof readRosterFolder>;
}
