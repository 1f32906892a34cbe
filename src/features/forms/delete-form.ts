import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import type { NoDeps } from '../../lib/service.js';
import { lockedForm } from './locked-form.js';

/**
 * Deletes the company's form that has no responses (with its invites, rules and versions); a form
 * with responses is refused: stored answers are never deleted with a form, close it instead.
 */
export async function deleteForm(db: DbOrTx, _deps: NoDeps, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  return db.transaction(async (tx) => {
    const form = await lockedForm(tx, companyId, id);
    // the row lock waits for a response being recorded (its trigger counts it on this row)
    const { rows } = await tx.execute<{ n: number }>(sql`SELECT response_count AS n FROM forms WHERE company_id = ${companyId} AND id = ${id} FOR UPDATE`);
    if (rows[0].n > 0) throw validationError([fieldError('', 'invalid_value', 'A form with responses cannot be deleted; close it instead.')], 'The form has responses.');
    await tx.delete(forms).where(and(eq(forms.companyId, companyId), eq(forms.id, id)));
    return { id: form.id, name: form.name, slug: form.slug };
  });
}
