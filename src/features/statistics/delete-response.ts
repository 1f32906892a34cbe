import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { ResolvedForm } from '../forms/index.js';
import { notFound } from '../../lib/errors.js';
import type { NoDeps } from '../../lib/service.js';
import { isUuid } from '../../lib/ids.js';
import { rebuildRollupsOfDay } from './rebuild-rollups.js';

/**
 * Deletes one response of the company and brings the statistics of its day back in line, in the
 * caller's transaction. There is no API route for it (the contract has none); operators call it
 * (`quorum response delete`). Another company's response is NOT_FOUND, like a missing one.
 */
export async function deleteResponse(tx: DbOrTx, _deps: NoDeps, input: { companyId: string; responseId: string }): Promise<void> {
  const { companyId, responseId } = input;
  if (!isUuid(responseId)) throw notFound('Response');
  // The delete's count trigger locks the form row first, so recordResponse of this form waits.
  const { rows } = await tx.execute<{ formId: string; day: string; content: ResolvedForm }>(sql`
    WITH deleted AS (DELETE FROM responses WHERE company_id = ${companyId} AND id = ${responseId} RETURNING form_id, created_at)
    SELECT d.form_id AS "formId", (d.created_at AT TIME ZONE 'UTC')::date::text AS day, f.content
    FROM deleted d JOIN forms f ON f.company_id = ${companyId} AND f.id = d.form_id`);
  if (rows.length === 0) throw notFound('Response');
  const [{ formId, day, content }] = rows;
  await rebuildRollupsOfDay(tx, companyId, formId, content, day);
}
