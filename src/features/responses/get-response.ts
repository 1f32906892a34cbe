import { sql } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { recordColumns, type ResponseRecordRow } from './response-columns.js';

/** The full response record; another company's response, or none, is NOT_FOUND alike. */
export async function getResponse(db: DbOrTx, _deps: NoDeps, input: { companyId: string; id: string }): Promise<ResponseRecordRow> {
  const { companyId, id } = input;
  if (!isUuid(id)) throw notFound('Response');
  const { rows } = await db.execute<ResponseRecordRow>(sql`SELECT ${recordColumns} FROM responses r WHERE r.company_id = ${companyId} AND r.id = ${id}`);
  if (rows.length === 0) throw notFound('Response');
  return rows[0];
}
