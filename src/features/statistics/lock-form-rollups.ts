import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';

/**
 * Takes the form's row lock, the one its response-count trigger (migration 0100) takes when a
 * response is recorded or deleted: every writer of a form's rollups holds it, so a fold, a
 * rebuild and a submission of one form never interleave. Until the caller's transaction ends.
 */
export async function lockFormRollups(tx: DbOrTx, companyId: string, formId: string): Promise<void> {
  await tx.execute(sql`SELECT 1 FROM forms WHERE company_id = ${companyId} AND id = ${formId} FOR NO KEY UPDATE`);
}
