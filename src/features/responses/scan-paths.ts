import { sql, type SQL } from 'drizzle-orm';
import { rollupResponseCountSql } from '../rollups/index.js';
import type { ListResponsesInput } from './list-responses.js';
import { filterSql, periodSql } from './response-filter.js';

// Planner steering for the responses scan: which index a page reads, and statement shapes that
// keep the planner on it. Every choice here is measured in bench/README.md (responses-scan).

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

function keysetSql(position: ScanPosition): SQL {
  // A row comparison: responses_scan_idx seeks straight to the position, however deep.
  return sql` AND (r.created_at, r.id) < (${position.t}::timestamptz, ${position.id}::uuid) AND r.seq <= ${position.s}`;
}

const PAGE_COLUMNS = (input: ListResponsesInput) =>
  sql`r.id, r.form_id, r.respondent, ${input.includeAnswers ? sql`r.answers, ` : sql``}r.completed_at, r.created_at, r.dims${input.includePresentedOrder ? sql`, r.presented_order` : sql``}`;

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
export function decisionSql(input: ListResponsesInput): SQL {
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
export function pageRowsSql(input: ListResponsesInput, position: ScanPosition | null): SQL {
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
