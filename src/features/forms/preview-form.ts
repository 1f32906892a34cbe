import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound, validationError } from '../../lib/errors.js';
import { assignIds, checkExplicitIds, validateFormDefinition } from './definition/index.js';
import { findForm, type FormRecord } from './find-form.js';

export interface PreviewFormInput {
  companyId: string;
  id: string;
  /** the builder's unsaved authoring file */
  definition: unknown;
}

/**
 * The company's form as it would be stored if the builder saved this definition now: the save's
 * validation and id assignment (kept by key), nothing written. New questions get throwaway ids.
 */
export async function previewForm(db: DbOrTx, _deps: NoDeps, input: PreviewFormInput): Promise<FormRecord> {
  const form = await findForm(db, {}, { companyId: input.companyId, id: input.id });
  if (!form) throw notFound('Form');
  const validated = validateFormDefinition(input.definition);
  if (!validated.ok) throw validationError(validated.errors, 'The form definition is invalid.');
  const def = validated.value;
  const errors = checkExplicitIds(def, form.content);
  if (errors.length) throw validationError(errors, 'The form definition is invalid.');
  const content = assignIds(def, form.content);
  return { ...form, name: def.name, description: def.description ?? null, language: def.settings.language ?? null, content };
}
