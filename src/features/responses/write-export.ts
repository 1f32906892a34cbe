import { PassThrough, Readable, type Writable } from 'node:stream';
import { once } from 'node:events';
import type { ExportCell } from './export-rows.js';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * A CSV field (RFC 4180). Text a spreadsheet would run as a formula (=, +, -, @ first, or a tab or
 * return) gets a leading apostrophe: an answer is data, never a formula on staff's machine.
 */
export function csvField(cell: ExportCell): string {
  if (cell === null) return '';
  if (typeof cell !== 'string') return String(cell);
  const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The export as CSV text, a line per row (a BOM first, so spreadsheets read it as UTF-8). */
function csvStream(header: string[], rows: AsyncIterable<ExportCell[]>): Readable {
  const line = (cells: ExportCell[]) => `${cells.map(csvField).join(',')}\r\n`;
  return Readable.from(
    (async function* () {
      yield `\uFEFF${line(header)}`;
      for await (const row of rows) yield line(row);
    })(),
  );
}

/** Waits while the consumer is behind, so rows are read from the database only as fast as they leave. */
async function drained(stream: Writable): Promise<void> {
  if (stream.writableNeedDrain) await once(stream, 'drain');
}

/** The export as an XLSX workbook written by exceljs's streaming writer (rows committed as they come, no shared strings). */
function xlsxStream(header: string[], rows: AsyncIterable<ExportCell[]>): Readable {
  const out = new PassThrough();
  void (async () => {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet('Responses');
    sheet.addRow(header).commit();
    for await (const row of rows) {
      sheet.addRow(row).commit();
      await drained(out);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

export function exportStream(format: ExportFormat, header: string[], rows: AsyncIterable<ExportCell[]>): Readable {
  return format === 'csv' ? csvStream(header, rows) : xlsxStream(header, rows);
}
