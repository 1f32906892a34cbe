import { parse } from 'csv-parse/sync';
import { validationError } from '../../lib/errors.js';

/** The most rows a file read for the panel may hold (a larger list goes through the CLI). */
export const MAX_FILE_ROWS = 200_000;

export interface ImportFile {
  /** The first row: the file's own column names. */
  columns: string[];
  /** Every later row, cells in the order of columns, with its line (CSV) or row number (XLSX). */
  rows: { line: number; cells: string[] }[];
}

const refuse = (message: string) => validationError([{ path: 'content', code: 'invalid_format', message }]);

function fromTable(table: { line: number; cells: string[] }[]): ImportFile {
  if (table.length === 0) throw validationError([{ path: 'content', code: 'required', message: 'The file is empty.' }]);
  if (table.length - 1 > MAX_FILE_ROWS) throw validationError([{ path: 'content', code: 'too_long', message: `At most ${MAX_FILE_ROWS} rows.` }]);
  const [header, ...rows] = table;
  const width = header.cells.length;
  return { columns: header.cells.map((c) => c.trim()), rows: rows.map((row) => ({ line: row.line, cells: Array.from({ length: width }, (_, i) => row.cells[i] ?? '') })) };
}

function readCsv(content: Buffer): ImportFile {
  try {
    const records = parse(content, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true, max_record_size: 64 * 1024 }) as unknown as { record: string[]; info: { lines: number } }[];
    return fromTable(records.map(({ record, info }) => ({ line: info.lines, cells: record })));
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('CSV_')) throw refuse(`Not a readable CSV file: ${(err as Error).message}`);
    throw err;
  }
}

/** A cell as text: dates as RFC 3339 (what expiresAt takes), everything else as the sheet shows it. */
function cellText(cell: { value: unknown; text: string }): string {
  return cell.value instanceof Date ? cell.value.toISOString() : (cell.text ?? '');
}

async function readXlsx(content: Buffer): Promise<ImportFile> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw refuse('Not a readable XLSX workbook.');
  }
  const sheet = workbook.worksheets[0];
  const table: { line: number; cells: string[] }[] = [];
  sheet?.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => (cells[column - 1] = cellText(cell)));
    table.push({ line: number, cells: Array.from(cells, (c) => c ?? '') });
  });
  return fromTable(table);
}

/** A CSV or XLSX file (by its name, else its first bytes: an XLSX is a ZIP) as its header and rows, for the panel's import preview. */
export async function readImportFile(input: { fileName: string; content: Buffer }): Promise<ImportFile> {
  const { fileName, content } = input;
  const zip = content.subarray(0, 2).toString('latin1') === 'PK';
  return fileName.toLowerCase().endsWith('.xlsx') || zip ? readXlsx(content) : readCsv(content);
}
