import { lockForTransaction } from '../../platform/db/advisory-lock.js';
import type { Tx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { findForm, type FormRecord } from './find-form.js';

/** The company's form by id, read under its slug lock (the import's), so writes to one form queue. */
export async function lockedForm(tx: Tx, companyId: string, id: string): Promise<FormRecord> {
  const form = await findForm(tx, {}, { companyId, id });
  if (!form) throw notFound('Form');
  await lockForTransaction(tx, 'form-import', `${companyId}/${form.slug}`);
  // read again under the lock: a write that held it may have changed the form (the slug never changes)
  const current = await findForm(tx, {}, { companyId, id });
  if (!current) throw notFound('Form');
  return current;
}
