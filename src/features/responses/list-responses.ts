import { sql, type SQL } from 'drizzle-orm';
import type { CursorPage } from '../../lib/pagination.js';
import type { DbOrTx } from '../../db/database.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { notFound, validationError } from '../../lib/errors.js';
import { parseDay } from '../../lib/date-time.js';
import { isUuid } from '../../lib/ids.js';
import { rollupResponseCountSql } from '../rollups/index.js';
import { itemColumns, itemJson, type ResponseItemTextRow } from './response-columns.js';

export interface ListResponsesInput {
  companyId: string;
  formId: string;
  limit: number;
  /** nextCursor of the previous page; absent on the first page. */
  cursor?: string;
  includeAnswers: boolean;
  /** YYYY-MM-DD, UTC, inclusive. */
  from?: string;
  to?: string;
  /** dim key → value, compared as strings with the stored canonical values, all ANDed. */
  dims: Record<string, string>;
}

/**
 * Where a scan stands: the last row returned (createdAt as JSON text, id) and the insertion
 * bound taken on the first page (rows inserted after it stay out of this pass, so none is seen twice). `w`: a
 * single-dim scan walks responses_scan_idx (its value is frequent), decided on the first page.
 */
export interface ScanPosition {
  t: string;
  id: string;
  s: number;
  w?: boolean;
}

function isScanPosition(p: unknown): p is ScanPosition {
  const pos = p as ScanPosition;
  return (
    typeof pos === 'object' && pos !== null && typeof pos.t === 'string' && isUuid(pos.id) && Number.isSafeInteger(pos.s) && (pos.w === undefined || typeof pos.w === 'boolean')
  );
}

/**
 * What the cursor is bound to: the form and the filters, which decide the row set. `include`
 * and `limit` only shape the pages, so a scan may change them between pages.
 */
function cursorBinding(input: ListResponsesInput): CursorBinding {
  return { companyId: input.companyId, scope: { route: 'forms.responses', formId: input.formId, from: input.from, to: input.to, dims: input.dims } };
}

export type ResponseFilter = Pick<ListResponsesInput, 'companyId' | 'formId' | 'from' | 'to' | 'dims'>;

/** The filters (and the form) as a WHERE clause on alias r; shared by the page, its total and statistics scans. */
export function filterSql(input: ResponseFilter): SQL {
  const conditions = [sql`r.company_id = ${input.companyId}`, sql`r.form_id = ${input.formId}`, ...periodSql(input, sql`r.created_at`)];
  if (Object.keys(input.dims).length > 0) {
    // The expression of responses_form_dims_idx (migration 0110).
    conditions.push(sql`response_form_dims(r.form_id, r.dims) @> ${JSON.stringify({ [input.formId]: input.dims })}::jsonb`);
  }
  return sql.join(conditions, sql` AND `);
}

/** Whole UTC days, inclusive at both ends: [from 00:00, to + 1 day 00:00). */
function periodSql(input: Pick<ResponseFilter, 'from' | 'to'>, createdAt: SQL): SQL[] {
  return [
    ...(input.from ? [sql`${createdAt} >= (${input.from}::date::timestamp AT TIME ZONE 'UTC')`] : []),
    ...(input.to ? [sql`${createdAt} < ((${input.to}::date + 1)::timestamp AT TIME ZONE 'UTC')`] : []),
  ];
}

function keysetSql(position: ScanPosition): SQL {
  // A row comparison: responses_scan_idx seeks straight to the position, however deep.
  return sql` AND (r.created_at, r.id) < (${position.t}::timestamptz, ${position.id}::uuid) AND r.seq <= ${position.s}`;
}

const PAGE_COLUMNS = (input: ListResponsesInput) =>
  sql`r.id, r.form_id, r.respondent, ${input.includeAnswers ? sql`r.answers, ` : sql``}r.completed_at, r.created_at, r.dims`;

/**
 * A dim value at least this share of its form's responses (of the period) pages by walking
 * responses_scan_idx and checking the dim per row: about 1 ÷ share neighbouring rows per match,
 * read in heap order. Rarer values take response_dim_scan, whose page reads one heap page per
 * match, prefetched. At a 20% share the side table is the cheaper of the two, warm and cold
 * (bench/README.md, responses-scan); a walk costs about 1 ÷ share, which puts the two level near
 * 30% (extrapolated from 20%, not measured).
 */
const WALK_SHARE = 0.3;

/** The responses of the filters in scan order from the position, walking responses_scan_idx. */
function scanWalkSql(input: ListResponsesInput, position: ScanPosition | null, where: SQL): SQL {
  return sql`
    SELECT ${PAGE_COLUMNS(input)}
    FROM responses r
    WHERE ${where}${position ? keysetSql(position) : sql``}
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT ${input.limit + 1}`;
}

/**
 * One dim value's responses in scan order from the position through response_dim_scan
 * (migrations 0510, 0550), which holds them in that order with their seq: an index-only seek
 * there gives the page's response ids, the scan's insertion bound applied, before any response is read.
 * The responses are then read together by a bitmap heap scan, whose heap reads Postgres issues
 * ahead (effective_io_concurrency): a rare value's responses lie a heap page each (their answers
 * inline, migration 0120), and a primary-key probe per id waited on each cold page in turn. The
 * ids go in two halves joined by OR because the planner costs a single `id = ANY` as an index
 * scan (the ids follow the heap order, so it expects neighbouring rows), and an OR of two index
 * conditions plans only as a bitmap scan. Unordered: the page's statement sorts its rows
 * (responsePageSql), and the ids already hold just this page.
 */
function dimScanSql(input: ListResponsesInput, position: ScanPosition | null, key: string, value: string): SQL {
  const conditions = [
    sql`d.company_id = ${input.companyId}`,
    sql`d.form_id = ${input.formId}`,
    sql`d.dim_key = ${key}`,
    sql`d.value = ${value}`,
    ...periodSql(input, sql`d.created_at`),
    ...(position ? [sql`(d.created_at, d.response_id) < (${position.t}::timestamptz, ${position.id}::uuid)`, sql`d.seq <= ${position.s}`] : []),
  ];
  const half = Math.ceil((input.limit + 1) / 2);
  return sql`
    WITH page AS MATERIALIZED (
      SELECT ARRAY(
        SELECT d.response_id FROM response_dim_scan d
        WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY d.created_at DESC, d.response_id DESC
        LIMIT ${input.limit + 1}) AS ids)
    SELECT ${PAGE_COLUMNS(input)}
    FROM responses r
    WHERE r.company_id = ${input.companyId}
      AND (r.id = ANY ((SELECT ids[:${half}::int] FROM page)::uuid[]) OR r.id = ANY ((SELECT ids[${half + 1}::int:] FROM page)::uuid[]))`;
}

/**
 * The same rows as the side table's, walking responses_scan_idx: the dim compared as a JSON
 * string, as response_dim_scan holds only string dims. No GIN condition the planner could
 * prefer over the walk.
 */
function dimWalkSql(input: ListResponsesInput, position: ScanPosition | null, key: string, value: string): SQL {
  return scanWalkSql(input, position, sql`${filterSql({ ...input, dims: {} })} AND r.dims -> ${key} = ${JSON.stringify(value)}::jsonb`);
}

/**
 * A single-dim scan's first page: its matches (the total) and whether it walks
 * responses_scan_idx, that is whether its value holds WALK_SHARE of the form's responses in the
 * period, by the rollups' counts (exact, O(months + edge days) rows each).
 */
function decisionSql(input: ListResponsesInput): SQL {
  const matches = rollupResponseCountSql(input)!;
  const all = rollupResponseCountSql({ ...input, dims: {} })!;
  return sql`SELECT c.matches, c.matches >= ${WALK_SHARE}::float8 * c.form_total AS walks
    FROM (SELECT ${matches} AS matches, ${all} AS form_total OFFSET 0) c`;
}

/**
 * A page's rows: the responses of the filters in scan order from the position. With exactly one
 * dim filter, walking responses_scan_idx (a frequent value) or response_dim_scan (a rare one),
 * as the first page decides (k.walks beside the form row, then the position's `w`); otherwise
 * responses_scan_idx, with the dim filters on the GIN index or checked per row.
 */
function pageRowsSql(input: ListResponsesInput, position: ScanPosition | null): SQL {
  const dims = Object.entries(input.dims);
  if (dims.length !== 1) return scanWalkSql(input, position, filterSql(input));
  const [[key, value]] = dims;
  if (position) return position.w ? dimWalkSql(input, position, key, value) : dimScanSql(input, position, key, value);
  // Both, each behind a one-time filter on the decision: only one runs.
  return sql`
    (SELECT * FROM (${dimWalkSql(input, null, key, value)}) w WHERE k.walks)
    UNION ALL
    (SELECT * FROM (${dimScanSql(input, null, key, value)}) s WHERE NOT k.walks)`;
}

/**
 * The first page also reads, in the same statement and so the same snapshot: the total (the
 * form's trigger-kept response_count when nothing is filtered, the rollups' day counts for a
 * period and at most one dim (one dim's: k.matches, read once for the total and the walk
 * decision), else a count of the matches) and the insertion bound, max(seq).
 * seq is drawn at insert, not at commit: a response whose transaction was still open at this
 * snapshot has a seq under the bound and may enter a later page of the pass, once at most.
 */
function firstPageExtrasSql(input: ListResponsesInput, filtered: boolean, decides: boolean): SQL {
  const counted = () => rollupResponseCountSql(input) ?? sql`(SELECT count(*) FROM responses r WHERE ${filterSql(input)})`;
  const total = decides ? sql`k.matches` : filtered ? counted() : sql`f.response_count`;
  return sql`, ${total} AS total, (SELECT coalesce(max(seq), 0) FROM responses WHERE company_id = ${input.companyId}) AS bound`;
}

type PageRow = ResponseItemTextRow & { total?: number; bound?: number; walks?: boolean };

/**
 * One statement per page; bench/responses-scan.ts times it raw. The form row anchors it: no row
 * means no such form in the company (404), a row with a null id an empty page. One extra row
 * tells whether another page exists. The page's rows are named r, as the table, and formatted
 * (itemColumns) after the LIMIT: a plan that sorts its matches (a rare dim value) would
 * otherwise print every match's jsonb as text, not only the page's.
 */
export function responsePageSql(input: ListResponsesInput, position: ScanPosition | null): SQL {
  const filtered = Boolean(input.from || input.to || Object.keys(input.dims).length > 0);
  const decides = !position && Object.keys(input.dims).length === 1;
  return sql`
    SELECT ${itemColumns(input.includeAnswers, 'text')} ${position ? sql`` : firstPageExtrasSql(input, filtered, decides)}${decides ? sql`, k.walks` : sql``}
    FROM forms f${decides ? sql` CROSS JOIN (${decisionSql(input)}) k` : sql``}
    LEFT JOIN LATERAL (${pageRowsSql(input, position)}) r ON true
    WHERE f.company_id = ${input.companyId} AND f.id = ${input.formId}
    ORDER BY r.created_at DESC, r.id DESC`;
}

/**
 * The last day a period filter may name: a period ends where the day after `to` starts, and that
 * day must be one the contract can write (YYYY-MM-DD, so 9999-12-31 at most).
 */
const LAST_PERIOD_DAY = '9999-12-30';

/** from and to as days of a period (src/lib/date-time.ts), from not after to; else VALIDATION_ERROR. */
export function checkPeriod(input: Pick<ListResponsesInput, 'from' | 'to'>): void {
  const outOfRange = (['from', 'to'] as const).filter((bound) => {
    const day = input[bound];
    return day !== undefined && (parseDay(day) === null || day > LAST_PERIOD_DAY);
  });
  if (outOfRange.length > 0) {
    throw validationError(outOfRange.map((bound) => ({ path: bound, code: 'invalid_value', message: `${bound} must be a day from 0001-01-01 to ${LAST_PERIOD_DAY}.` })));
  }
  if (input.from && input.to && input.from > input.to) {
    throw validationError([{ path: 'from', code: 'invalid_value', message: 'from must not be after to.' }]);
  }
}

/**
 * A page of a form's responses, createdAt desc then id desc (spec: Pagination, cursor form),
 * each item as its JSON text (itemJson). Keyset on (created_at, id) over responses_scan_idx keeps
 * deep pages as cheap as the first; the seq bound in the cursor keeps rows inserted during the
 * scan out of it, even backdated ones.
 */
export async function listResponses(db: DbOrTx, deps: { cursorSecret: string }, input: ListResponsesInput): Promise<CursorPage<string>> {
  if (!isUuid(input.formId)) throw notFound('Form');
  checkPeriod(input);
  const binding = cursorBinding(input);
  const position = input.cursor ? decodeCursor(deps.cursorSecret, binding, input.cursor, isScanPosition) : null;
  const { rows } = await db.execute<PageRow>(responsePageSql(input, position));
  if (rows.length === 0) throw notFound('Form');
  const hasMore = rows.length > input.limit;
  const pageRows = rows.slice(0, input.limit).filter((row) => row.id !== null);
  const items = pageRows.map(itemJson);
  const last = pageRows.at(-1);
  const next = position ? { s: position.s, w: position.w } : { s: rows[0].bound!, w: rows[0].walks ?? undefined };
  const nextCursor = hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.createdAt, id: last.id, ...next }) : null;
  return position ? { items, hasMore, nextCursor } : { items, hasMore, nextCursor, total: rows[0].total! };
}
