import { sql, type SQL } from 'drizzle-orm';

/** A text[] parameter built from JSON: no array-literal quoting to get wrong, whatever the codes hold. */
export function textArray(values: Iterable<string>): SQL {
  return sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(values)])}::jsonb))`;
}
