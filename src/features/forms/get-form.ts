import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { toPublicContent } from './definition/index.js';
import { findForm } from './find-form.js';

/** The form detail of the API; another company's form, or no form, is NOT_FOUND alike. */
export async function getForm(db: DbOrTx, deps: NoDeps, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  const form = await findForm(db, deps, { companyId, id });
  if (!form) throw notFound('Form');
  return { id: form.id, name: form.name, content: toPublicContent(form.content) };
}
