import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { CursorPage } from '../../lib/pagination.js';
import type { Db } from '../../platform/db/database.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../../lib/cursor.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { rollupResponseCountSql } from '../rollups/index.js';
import { itemColumns, type ResponseItemTextRow } from './response-columns.js';
import { checkPeriod, filterSql, type ResponseFilter } from './response-filter.js';
import { itemJson } from './response-json.js';
import { decisionSql, pageRowsSql, type ScanPosition } from './scan-paths.js';

export interface ListResponsesInput extends ResponseFilter {
  limit: number;
  /** nextCursor of the previous page; absent on the first page. */
  cursor?: string;
  includeAnswers: boolean;
  /** Adds presentedOrder to each item (the export's order columns); no API answer carries it on a scan. */
  includePresentedOrder?: boolean;
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
    SELECT ${itemColumns(input.includeAnswers, 'text', input.includePresentedOrder)} ${position ? sql`` : firstPageExtrasSql(input, filtered, decides)}${decides ? sql`, k.walks` : sql``}
    FROM forms f${decides ? sql` CROSS JOIN (${decisionSql(input)}) k` : sql``}
    LEFT JOIN LATERAL (${pageRowsSql(input, position)}) r ON true
    WHERE f.company_id = ${input.companyId} AND f.id = ${input.formId}
    ORDER BY r.created_at DESC, r.id DESC`;
}

const dialect = new PgDialect();
/** Names of the unfiltered scan's statement texts: first or later page, with or without answers or presentedOrder (8 at most). */
const statementNames = new Map<string, string>();

/**
 * The unfiltered scan's page runs as a named statement: Postgres parses and analyses it once per
 * connection, then only plans it (a custom plan every time: the planner sees the position), which
 * took a quarter off the statement's time (bench/README.md, responses-scan). Filtered pages stay
 * unnamed: their plans (walk or side table, GIN, rollup counts) were measured as custom plans only.
 */
function statementName(input: ListResponsesInput, text: string): string | undefined {
  if (input.from || input.to || Object.keys(input.dims).length > 0) return undefined;
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `responses-scan-${statementNames.size + 1}`));
  return name;
}

/**
 * A page of a form's responses, createdAt desc then id desc (spec: Pagination, cursor form),
 * each item as its JSON text (itemJson). Keyset on (created_at, id) over responses_scan_idx keeps
 * deep pages as cheap as the first; the seq bound in the cursor keeps rows inserted during the
 * scan out of it, even backdated ones.
 */
export async function listResponses(db: Db, deps: { cursorSecret: string }, input: ListResponsesInput): Promise<CursorPage<string>> {
  if (!isUuid(input.formId)) throw notFound('Form');
  checkPeriod(input);
  const binding = cursorBinding(input);
  const position = input.cursor ? decodeCursor(deps.cursorSecret, binding, input.cursor, isScanPosition) : null;
  const { sql: text, params } = dialect.sqlToQuery(responsePageSql(input, position));
  const { rows } = await db.$client.query<PageRow>({ name: statementName(input, text), text, values: params });
  if (rows.length === 0) throw notFound('Form');
  const hasMore = rows.length > input.limit;
  const pageRows = rows.slice(0, input.limit).filter((row) => row.id !== null);
  const items = pageRows.map(itemJson);
  const last = pageRows.at(-1);
  const next = position ? { s: position.s, w: position.w } : { s: rows[0].bound!, w: rows[0].walks ?? undefined };
  const nextCursor = hasMore && last ? encodeCursor(deps.cursorSecret, binding, { t: last.createdAt, id: last.id, ...next }) : null;
  return position ? { items, hasMore, nextCursor } : { items, hasMore, nextCursor, total: rows[0].total! };
}
