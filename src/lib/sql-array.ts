import { sql, type SQL } from 'drizzle-orm';

/** The element types lists reach SQL as. */
export type SqlArrayType = 'uuid' | 'text' | 'int' | 'int8' | 'numeric' | 'jsonb' | 'timestamptz' | 'boolean' | 'bytea';

/**
 * The one way a list reaches SQL: `$n::type[]`, the whole list as ONE bound parameter that
 * node-postgres serialises (quoting commas, quotes, braces and backslashes itself), so the
 * statement text is the same for any length and no value can break out of a literal. Use it as
 * `= ANY(sqlArray('uuid', ids))` or `unnest(sqlArray('text', keys), ...)`.
 */
export function sqlArray(type: SqlArrayType, values: readonly unknown[]): SQL {
  return sql`${sql.param(values)}::${sql.raw(type)}[]`;
}
