import type { DbOrTx } from '../../platform/db/database.js';
import { lockForTransaction } from '../../platform/db/advisory-lock.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validateFormDefinition } from './definition/index.js';
import { findFormBySlug } from './find-form.js';
import { storeFormDefinition, type FormActor } from './store-form-definition.js';

export interface ImportFormResult {
  status: 'created' | 'updated' | 'unchanged';
  id: string;
  slug: string;
  name: string;
  questionCount: number;
}

/**
 * Creates the company's form with the file's slug, or updates it. Ids of sections, questions
 * and choices are kept by key across updates (stored answers keep pointing at them), so the
 * previous version is read and replaced in one transaction, one import per slug at a time.
 * Invalid files throw VALIDATION_ERROR with one entry per problem and its JSON path.
 */
export async function importForm(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; rawJson: unknown; actor?: FormActor }): Promise<ImportFormResult> {
  const { companyId, rawJson } = input;
  const validated = validateFormDefinition(rawJson);
  if (!validated.ok) throw validationError(validated.errors, 'The form definition is invalid.');
  const def = validated.value;
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'form-import', `${companyId}/${def.slug}`);
    const previous = await findFormBySlug(tx, deps, { companyId, slug: def.slug });
    const { status, form } = await storeFormDefinition(tx, deps, { companyId, def, previous, actor: input.actor ?? null });
    return { status, id: form.id, slug: form.slug, name: form.name, questionCount: form.questionCount };
  });
}
