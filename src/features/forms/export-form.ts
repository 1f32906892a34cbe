import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { exportFormDefinition, type FormDefinition } from './definition/index.js';
import { findFormByIdOrSlug, formSettings } from './find-form.js';

/** The authoring file of a stored form, ids included, so that importing it again keeps every id. */
export async function exportForm(db: DbOrTx, deps: NoDeps, input: { companyId: string; idOrSlug: string }): Promise<FormDefinition> {
  const { companyId, idOrSlug } = input;
  const form = await findFormByIdOrSlug(db, deps, { companyId, idOrSlug });
  if (!form) throw notFound('Form');
  return exportFormDefinition(form.content, {
    slug: form.slug,
    name: form.name,
    description: form.description ?? undefined,
    settings: formSettings(form),
  });
}
