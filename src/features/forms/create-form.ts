import { lockForTransaction } from '../../platform/db/advisory-lock.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validateFormDefinition } from './definition/index.js';
import { findFormBySlug } from './find-form.js';
import { storeFormDefinition, type FormActor } from './store-form-definition.js';

/**
 * A new form (not public, open) with one empty section, checked by the same
 * validation as an imported file; a slug the company already uses is `not_unique` (an import
 * with that slug would update the other form instead).
 */
export async function createForm(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; name: string; slug: string; actor: FormActor }) {
  const { companyId, actor } = input;
  const validated = validateFormDefinition({ slug: input.slug, name: input.name.trim(), sections: [{ key: 'section-1', name: input.name.trim() || '-', questions: [] }] });
  if (!validated.ok) throw validationError(validated.errors.filter((error) => !error.path.startsWith('sections')));
  const def = validated.value;
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'form-import', `${companyId}/${def.slug}`);
    if (await findFormBySlug(tx, deps, { companyId, slug: def.slug })) throw validationError([fieldError('slug', 'not_unique', 'Another form of the company has this slug.')]);
    return (await storeFormDefinition(tx, deps, { companyId, def, previous: null, actor })).form;
  });
}
