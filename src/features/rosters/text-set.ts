import { sql, type SQL } from 'drizzle-orm';
import { sqlArray } from '../../lib/sql-array.js';

/**
 * A set of texts for `column IN <set>`: a semi-join the planner hashes (an `= ANY (array)` of
 * 10,000 codes is compared row by row).
 */
export function textSet(values: Iterable<string>): SQL {
  return sql`(SELECT unnest(${sqlArray('text', [...new Set(values)])}))`;
}
