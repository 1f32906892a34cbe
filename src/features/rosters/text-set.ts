import { sql, type SQL } from 'drizzle-orm';

/**
 * A set of texts for `column IN <set>`, passed as JSON: no array-literal quoting to get wrong,
 * and a semi-join the planner hashes (an `= ANY (array)` of 10,000 codes is compared row by row).
 */
export function textSet(values: Iterable<string>): SQL {
  return sql`(SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(values)])}::jsonb))`;
}
