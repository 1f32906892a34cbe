import { sql, type SQL } from 'drizzle-orm';
import { dimCutKey, WHOLE_FORM } from './response-facts.js';

export interface CountedCut {
  companyId: string;
  formId: string;
  /** YYYY-MM-DD, UTC, inclusive */
  from?: string;
  to?: string;
  dims: Record<string, string>;
}

/**
 * The responses of a cut as a scalar subquery over the rollups: O(days) rows of its responses
 * counter, where counting the responses reads every match. Null when the rollups cannot answer
 * (two or more dims: they keep no cross-cuts). A subquery, so it reads in its statement's snapshot.
 */
export function rollupResponseCountSql(cut: CountedCut): SQL | null {
  const dims = Object.entries(cut.dims);
  if (dims.length > 1) return null;
  const { key, value } = dims.length === 0 ? WHOLE_FORM : { key: dimCutKey(dims[0][0]), value: dims[0][1] };
  const conditions = [
    sql`company_id = ${cut.companyId}`,
    sql`form_id = ${cut.formId}`,
    sql`cut_key = ${key}`,
    sql`cut_value = ${value}`,
    sql`question_id = ''`,
    sql`item = 'responses'`,
  ];
  if (cut.from) conditions.push(sql`day >= ${cut.from}::date`);
  if (cut.to) conditions.push(sql`day <= ${cut.to}::date`);
  return sql`(SELECT coalesce(sum(n), 0)::int8 FROM statistics_rollups WHERE ${sql.join(conditions, sql` AND `)})`;
}
