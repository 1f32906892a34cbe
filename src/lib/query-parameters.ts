import { Type } from '@sinclair/typebox';

/** Query-string pieces that several features' routes share (responses and statistics read the same cuts). */

/** `dim.<key>` parameters; the key follows the dim keys forms may declare. */
export const DIM_PARAM = '^dim\\.[a-z][a-zA-Z0-9_]{0,39}$';
const DIM_PREFIX = 'dim.';

/** YYYY-MM-DD naming a real day (format: date checks the calendar); year 0000 does not exist in Postgres. */
export const Day = (description: string) => Type.String({ format: 'date', pattern: '^(?!0000)\\d{4}-\\d{2}-\\d{2}$', description });

/** A period of whole UTC days over the responses' creation time. */
export const periodQueryFields = {
  from: Type.Optional(Day('Only responses created on or after this UTC day (YYYY-MM-DD, inclusive).')),
  to: Type.Optional(Day('Only responses created on or before this UTC day (YYYY-MM-DD, inclusive).')),
};

/** The `dim.<key>=value` parameters of a query, keyed by dim key. */
export function dimFilters(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([name]) => name.startsWith(DIM_PREFIX))
      .map(([name, value]) => [name.slice(DIM_PREFIX.length), String(value)]),
  );
}
