/**
 * How the import page sends a file's mapped rows: in parts of the route's maximum, the first part
 * alone (a writing import's first part makes the batch the others append to), then the rest with
 * IN_FLIGHT requests under way, so the server checks or writes one part while the next travels
 * and is parsed (100,000 rows: from 0.64 to about 1.1 of the CLI import's rate, bench/README.md,
 * panel-import). Progress moves as each part comes back. One consequence: a contact written twice
 * in two parts under way together keeps whichever part the database wrote first, where one part
 * after another always kept the earlier line (the other is listed as a duplicate either way).
 * Plain TypeScript with no browser API: the panel-import bench drives the same code.
 */

/** Rows per request: the route's maximum (MAX_IMPORT_ROWS). */
export const PART_ROWS = 2000;
/** Requests under way at once: two keep the server busy while a part travels; more only queue. */
export const IN_FLIGHT = 2;

export interface PartRow {
  line: number;
  cells: string[];
}

export interface PartSummary {
  batchId: string | null;
  rows: number;
  created: number;
  duplicates: number;
  invalid: number;
  duplicateRows: { line: number; email: string | null; phone: string | null }[];
  invalidRows: { line: number; errors: { path: string; code: string; message: string }[] }[];
}

export type SendPart = (body: { columns: string[]; rows: PartRow[]; dryRun: boolean; batchId?: string }) => Promise<PartSummary>;

const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;

/**
 * Every part sent; the summaries merged (listed rows in line order). After a part fails no other
 * is sent, and it rejects with that part's error once the part still under way has come back (its
 * progress must not arrive after the failure was shown).
 */
export async function importInParts(send: SendPart, input: { columns: string[]; rows: PartRow[]; dryRun: boolean; onProgress: (done: number) => void }): Promise<PartSummary> {
  const { columns, rows, dryRun, onProgress } = input;
  const parts: PartRow[][] = [];
  for (let start = 0; start < rows.length; start += PART_ROWS) parts.push(rows.slice(start, start + PART_ROWS));
  if (parts.length === 0) parts.push([]);
  const total: PartSummary = { batchId: null, rows: 0, created: 0, duplicates: 0, invalid: 0, duplicateRows: [], invalidRows: [] };
  let done = 0;
  const sendPart = async (part: PartRow[]) => {
    const summary = await send({ columns, rows: part, dryRun, ...(total.batchId ? { batchId: total.batchId } : {}) });
    total.batchId = summary.batchId ?? total.batchId;
    total.rows += summary.rows;
    total.created += summary.created;
    total.duplicates += summary.duplicates;
    total.invalid += summary.invalid;
    total.duplicateRows.push(...summary.duplicateRows);
    total.invalidRows.push(...summary.invalidRows);
    done += part.length;
    onProgress(done);
  };
  await sendPart(parts[0]);
  let next = 1;
  let failed = false;
  const lane = async () => {
    while (!failed && next < parts.length) {
      const part = parts[next++];
      try {
        await sendPart(part);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: IN_FLIGHT }, lane));
  const failure = lanes.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  total.duplicateRows.sort(byLine);
  total.invalidRows.sort(byLine);
  return total;
}
