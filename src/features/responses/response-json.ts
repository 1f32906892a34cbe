import type { ResponseItemTextRow } from './response-columns.js';

/**
 * A Response as JSON text, in the field order of its schema, from a text row: a page of a scan
 * goes out without parsing the stored JSON and serializing it again (bench/README.md,
 * responses-scan). Ids and timestamps need no escaping (UUIDs, to_char digits); the jsonb text
 * is valid JSON as Postgres prints it.
 */
export function itemJson(row: ResponseItemTextRow): string {
  const completedAt = row.completedAt === null ? 'null' : `"${row.completedAt}"`;
  const answers = row.answers === undefined ? '' : `,"answers":${row.answers}`;
  const order = row.presentedOrder === undefined ? '' : `,"presentedOrder":${row.presentedOrder ?? 'null'}`;
  return `{"id":"${row.id}","formId":"${row.formId}","respondent":${row.respondent ?? 'null'},"completedAt":${completedAt},"createdAt":"${row.createdAt}","dims":${row.dims}${answers}${order}}`;
}
