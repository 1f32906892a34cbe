import { parse } from 'csv-parse/sync';

export interface CsvTable {
  /** Each row by the format's own column names (cells trimmed; empty cells left out). */
  rows: Array<Record<string, string>>;
  /** Header cells that are none of the format's columns, as written. */
  unknownColumns: string[];
}

/**
 * One CSV file of a roster export: UTF-8 with or without a BOM, CRLF or LF, a header row naming
 * the columns in any order and case, so files of two versions of a format (with columns added or
 * moved) read alike. Columns the format does not define are returned by name, not guessed at.
 */
export function readCsvTable(text: string, columns: readonly string[]): CsvTable {
  const byLowerName = new Map(columns.map((column) => [column.toLowerCase(), column]));
  const unknownColumns: string[] = [];
  const records = parse(text, {
    bom: true,
    trim: true,
    skip_empty_lines: true,
    columns: (header: string[]) =>
      header.map((name) => {
        const column = byLowerName.get(name.toLowerCase());
        if (!column) unknownColumns.push(name);
        return column ?? false;
      }),
  }) as Array<Record<string, string>>;
  const rows = records.map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== '')));
  return { rows, unknownColumns };
}
