import { sql, type SQL } from 'drizzle-orm';
import { dimCutKey, WHOLE_FORM } from './cut-keys.js';
import { spanCondition } from './rollup-spans.js';

export interface CountedCut {
  companyId: string;
  formId: string;
  /** YYYY-MM-DD, UTC, inclusive */
  from?: string;
  to?: string;
  dims: Record<string, string>;
}

/**
 * The responses of a cut as a scalar subquery over the rollups: O(months + edge days) rows' response
 * counts, pending responses included (the live view, migration 0540), where counting the
 * responses reads every match. Null when the rollups cannot answer
 * (two or more dims: they keep no cross-cuts). A subquery, so it reads in its statement's snapshot.
 */
export function rollupResponseCountSql(cut: CountedCut): SQL | null {
  const dims = Object.entries(cut.dims);
  if (dims.length > 1) return null;
  const { key, value } = dims.length === 0 ? WHOLE_FORM : { key: dimCutKey(dims[0][0]), value: dims[0][1] };
  return sql`(SELECT coalesce(sum(responses), 0)::int8 FROM statistics_rollups_live
    WHERE company_id = ${cut.companyId} AND form_id = ${cut.formId} AND cut_key = ${key} AND cut_value = ${value} AND ${spanCondition(cut.from, cut.to)})`;
}
