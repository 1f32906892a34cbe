import type { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { sql } from 'drizzle-orm';
import { noDeps } from '../../lib/service.js';
import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { notFound, validationError, type FieldError } from '../../lib/errors.js';
import { parseInstant } from '../../lib/date-time.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import type { FormRecord } from '../forms/index.js';
import { inviteRules, newInviteTokens } from './create-invite.js';
import { resolveEntityRefs } from '../entities/index.js';
import { inviteEntityRefs, prepareInviteResolved, type InviteRules, type PreparedInvite } from './prepare-invite.js';
import { CreateInviteBody, DIM_VALUE_MAX_LENGTH, type CreateInviteInput } from './schemas.js';

/** Rows per chunk: one entity lookup and one INSERT per thousand rows, statements Postgres plans in microseconds. */
const CHUNK_ROWS = 1000;
/** The summary lists at most this many duplicate and invalid rows (the counts are always whole). */
export const LISTED_ROWS_LIMIT = 1000;
/** A record longer than this is malformed, not buffered: a stray quote cannot swallow the file. */
const MAX_RECORD_BYTES = 64 * 1024;

const CONTACT_COLUMNS = ['name', 'email', 'phone', 'externalId', 'expiresAt'] as const;
const DIM_PREFIX = 'dim.';

export interface ImportedRow {
  line: number;
  email: string | null;
  phone: string | null;
}

export interface ImportSummary {
  batchId: string;
  /** The form the invites were made on (the send call's path names it). */
  formId: string;
  rows: number;
  created: number;
  duplicates: number;
  invalid: number;
  /** Contacts that already had an invite on the form (or appeared earlier in the file): not overwritten. */
  duplicateRows: ImportedRow[];
  invalidRows: { line: number; errors: FieldError[] }[];
}

export interface ImportProgress {
  rows: number;
  created: number;
  /** Bytes of the source the parser has consumed: against the file's size, the share done. */
  bytes: number;
}

type PendingInvite = PreparedInvite & { id: string; token: string; line: number };
type CheckedInvite = PreparedInvite & { line: number };
/** A CSV record read, before its dims are resolved with the rest of its chunk. */
type ReadRow = { line: number; input: CreateInviteInput; errors: FieldError[] };

function checkHeader(header: string[]): string[] {
  const errors = header
    .map((column, index) => ({ column: column.trim(), index }))
    .filter(({ column }) => !(CONTACT_COLUMNS as readonly string[]).includes(column) && !(column.startsWith(DIM_PREFIX) && column.length > DIM_PREFIX.length))
    .map(({ column, index }) => ({ path: `header.${index}`, code: 'unknown_field' as const, message: `Unknown column "${column.slice(0, 60)}": use ${CONTACT_COLUMNS.join(', ')} or dim.<key>.` }));
  if (errors.length > 0) throw validationError(errors, 'The CSV header has unknown columns.');
  return header.map((column) => column.trim());
}

/** The HTTP body's bounds (the same schema), checked on text read from the file. */
function boundErrors(column: string, value: string): FieldError[] {
  if (value.includes('\u0000')) return [{ path: column, code: 'invalid_value', message: 'The value contains a NUL byte.' }];
  const key = column as (typeof CONTACT_COLUMNS)[number];
  const maxLength = column.startsWith(DIM_PREFIX) ? DIM_VALUE_MAX_LENGTH : CreateInviteBody.properties[key].maxLength;
  if (maxLength !== undefined && value.length > maxLength) return [{ path: column, code: 'too_long', message: `At most ${maxLength} characters.` }];
  if (key === 'expiresAt' && parseInstant(value) === null) return [{ path: column, code: 'invalid_format', message: 'An RFC 3339 date-time with a time zone, e.g. 2026-06-30T23:59:00Z.' }];
  return [];
}

/** A CSV record as the body of POST /invites: empty cells are absent, dim.<key> columns become dims. */
function readRecord(record: Record<string, string>): { input: CreateInviteInput; errors: FieldError[] } {
  const input: CreateInviteInput & { dims: Record<string, string> } = { dims: {} };
  const errors: FieldError[] = [];
  for (const [column, raw] of Object.entries(record)) {
    const value = raw.trim();
    if (value === '') continue;
    errors.push(...boundErrors(column, value));
    if (column.startsWith(DIM_PREFIX)) input.dims[column.slice(DIM_PREFIX.length)] = value;
    else input[column as (typeof CONTACT_COLUMNS)[number]] = value;
  }
  return { input, errors };
}

/**
 * A chunk's rows normalised like POST /invites, with the entity codes of all their dims resolved
 * in one query; invalid rows go to `reportInvalid` with their line.
 */
async function checkChunk(db: Db, rules: InviteRules, rows: ReadRow[], reportInvalid: (line: number, errors: FieldError[]) => void): Promise<CheckedInvite[]> {
  const readable = rows.filter((row) => row.errors.length === 0);
  const resolved = await resolveEntityRefs(db, noDeps, { companyId: rules.companyId, refs: readable.flatMap((row) => inviteEntityRefs(rules, row.input)) });
  const valid: CheckedInvite[] = [];
  for (const { line, input, errors } of rows) {
    const prepared = errors.length > 0 ? { ok: false as const, errors } : prepareInviteResolved(rules, input, resolved);
    if (prepared.ok) valid.push({ ...prepared.invite, line });
    else reportInvalid(line, prepared.errors);
  }
  return valid;
}

/** The checked rows with the id and token they are written with (a dry run makes neither). */
function pending(valid: CheckedInvite[], newId: IdGenerator): PendingInvite[] {
  const tokens = newInviteTokens(valid.length);
  return valid.map((invite, i) => ({ ...invite, id: newId(), token: tokens[i] }));
}

/** One INSERT for a chunk; the rows the unique indexes refused come back as duplicates. */
async function insertChunk(db: Db, companyId: string, formId: string, batchId: string, now: Date, chunk: PendingInvite[]): Promise<PendingInvite[]> {
  const payload = chunk.map((r) => ({
    id: r.id, token: r.token, email: r.email, phone: r.phone, name: r.name, external_id: r.externalId,
    dims: r.dims, org_unit_id: r.orgUnitId, org_path: r.orgPath, expires_at: r.expiresAt,
  }));
  const { rows } = await db.execute<{ id: string }>(sql`
    INSERT INTO invites (id, company_id, form_id, batch_id, token, email, phone, name, external_id, dims, org_unit_id, org_path,
                         expires_at, status_changed_at, created_at)
    SELECT r.id, ${companyId}, ${formId}, ${batchId}, r.token, r.email, r.phone, r.name, r.external_id, r.dims, r.org_unit_id, r.org_path,
           r.expires_at, ${now}, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb)
           AS r(id uuid, token text, email text, phone text, name text, external_id text, dims jsonb, org_unit_id uuid, org_path text, expires_at timestamptz)
    ON CONFLICT DO NOTHING
    RETURNING id`);
  const created = new Set(rows.map((r) => r.id));
  return chunk.filter((r) => !created.has(r.id));
}

/** A row to import: its cells by column (the header's names), or the parse error of a malformed one. */
export type ImportRow = { line: number; record: Record<string, string> } | { line: number; errors: FieldError[] };

export interface ImportRowsInput {
  companyId: string;
  form: FormRecord | null;
  /** The columns the rows use (a CSV header, or the panel's mapping): name, email, phone, externalId, expiresAt, dim.<key>. */
  columns: string[];
  rows: AsyncIterable<ImportRow> | Iterable<ImportRow>;
  /** Appends to this earlier import batch of the form (the panel sends a file in parts); absent: a new batch. */
  batchId?: string;
  /** Checks every row as the import would and writes nothing (no batch, no invite). */
  dryRun?: boolean;
  /** Called after each row read and each chunk written. */
  onProgress?: (progress: { rows: number; created: number }) => void;
}

/** The import batch `batchId` of the form, or VALIDATION_ERROR: parts of one import append to one batch. */
async function existingImportBatch(db: Db, companyId: string, formId: string, batchId: string): Promise<void> {
  const { rows } = isUuid(batchId)
    ? await db.execute(sql`SELECT 1 FROM invite_batches WHERE company_id = ${companyId} AND form_id = ${formId} AND id = ${batchId} AND kind = 'import'`)
    : { rows: [] };
  if (rows.length === 0) throw validationError([{ path: 'batchId', code: 'unknown_reference', message: 'No import batch of this form has this id.' }]);
}

/**
 * The one bulk import of invites, whatever the source (a CSV stream, the panel's mapped rows):
 * each row normalised exactly like POST /forms/{id}/invites and inserted a chunk at a time, so
 * memory does not grow with the input. Every invite gets the import's batch id (selectable by a
 * send). Invalid rows are reported with their line, contacts that already have an invite are
 * reported and left as they are. With dryRun the rows are checked and nothing is written
 * (duplicates are only found by the writing import).
 */
export async function importInviteRows(db: Db, deps: { clock: Clock; newId: IdGenerator }, input: ImportRowsInput): Promise<ImportSummary> {
  const { companyId, form, rows, dryRun = false, onProgress = () => undefined } = input;
  if (!form || form.companyId !== companyId) throw notFound('Form');
  checkHeader(input.columns);
  if (input.batchId !== undefined) await existingImportBatch(db, companyId, form.id, input.batchId);
  const now = deps.clock.now();
  const rules = await inviteRules(db, companyId, form, now);
  const summary: ImportSummary = { batchId: input.batchId ?? deps.newId(), formId: form.id, rows: 0, created: 0, duplicates: 0, invalid: 0, duplicateRows: [], invalidRows: [] };
  // Written with the first chunk, once the columns were accepted: a refused file leaves nothing behind.
  let batchWritten = dryRun || input.batchId !== undefined;
  const writeBatch = async () => {
    if (batchWritten) return;
    await db.execute(sql`INSERT INTO invite_batches (id, company_id, form_id, kind, created_at) VALUES (${summary.batchId}, ${companyId}, ${form.id}, 'import', ${now})`);
    batchWritten = true;
  };
  const reportInvalid = (line: number, errors: FieldError[]) => {
    summary.invalid += 1;
    if (summary.invalidRows.length < LISTED_ROWS_LIMIT) summary.invalidRows.push({ line, errors });
  };

  let chunk: ReadRow[] = [];
  const flush = async () => {
    const checked = await checkChunk(db, rules, chunk, reportInvalid);
    chunk = [];
    if (dryRun) return;
    const valid = pending(checked, deps.newId);
    await writeBatch();
    const duplicates = valid.length > 0 ? await insertChunk(db, companyId, form.id, summary.batchId, now, valid) : [];
    summary.created += valid.length - duplicates.length;
    summary.duplicates += duplicates.length;
    for (const { line, email, phone } of duplicates.slice(0, LISTED_ROWS_LIMIT - summary.duplicateRows.length)) summary.duplicateRows.push({ line, email, phone });
    onProgress({ rows: summary.rows, created: summary.created });
  };
  for await (const row of rows) {
    summary.rows += 1;
    if ('errors' in row) reportInvalid(row.line, row.errors);
    else chunk.push({ ...readRecord(row.record), line: row.line });
    // Each row, not each chunk: a file of a few thousand rows would otherwise jump to 100% at once.
    onProgress({ rows: summary.rows, created: summary.created });
    if (chunk.length >= CHUNK_ROWS) await flush();
  }
  await flush();
  // Malformed records are reported as the parser meets them, ahead of the rows of their chunk.
  summary.invalidRows.sort((a, b) => a.line - b.line);
  return summary;
}

/**
 * Bulk import of invites from a CSV stream (columns name, email, phone, externalId, expiresAt,
 * dim.<key>) through importInviteRows. The stream is parsed record by record with backpressure;
 * malformed records become invalid rows with their line.
 */
export async function importInvites(
  db: Db,
  deps: { clock: Clock; newId: IdGenerator },
  input: { companyId: string; form: FormRecord | null; source: Readable; onProgress?: (progress: ImportProgress) => void },
): Promise<ImportSummary> {
  const { companyId, form, source, onProgress = () => undefined } = input;
  if (!form || form.companyId !== companyId) throw notFound('Form');
  // Malformed records the parser skipped, yielded as invalid rows before the next record.
  const skippedRows: ImportRow[] = [];
  let header: string[] | null = null;
  const parser = parse({
    bom: true,
    columns: (names: string[]) => (header = checkHeader(names)),
    info: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      skippedRows.push({ line: Number(err?.lines ?? 0), errors: [{ path: 'row', code: 'invalid_format', message: err?.message ?? 'Malformed CSV row.' }] });
      return undefined;
    },
  });
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  const records = (parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; bytes: number } }>)[Symbol.asyncIterator]();
  let bytes = 0;
  // The header must be read (and accepted) before the rows are: its first record, or the end.
  const first = await records.next().catch((err: unknown) => ({ error: err }));
  async function* csvRows(): AsyncGenerator<ImportRow> {
    let next: IteratorResult<{ record: Record<string, string>; info: { lines: number; bytes: number } }> | { error: unknown } = first;
    try {
      while (!('error' in next) && !next.done) {
        yield* skippedRows.splice(0);
        bytes = next.value.info.bytes;
        yield { line: next.value.info.lines, record: next.value.record };
        next = await records.next();
      }
      if ('error' in next) throw next.error;
    } catch (err) {
      // An unclosed quote at the end of the file is the one parse error that cannot be skipped.
      const lines = (err as Partial<CsvError>).lines;
      if (typeof lines !== 'number' || !(err as Partial<CsvError>).code?.startsWith('CSV_')) throw err;
      yield* skippedRows.splice(0);
      yield { line: lines, errors: [{ path: 'row', code: 'invalid_format', message: (err as Error).message }] };
    }
    yield* skippedRows.splice(0);
    bytes = parser.info.bytes;
  }
  if (header === null && 'error' in first && !(first.error as Partial<CsvError>).code?.startsWith('CSV_')) throw first.error;
  return importInviteRows(db, deps, {
    companyId,
    form,
    columns: header ?? [],
    rows: csvRows(),
    onProgress: (progress) => onProgress({ ...progress, bytes }),
  });
}
