import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { answeredRemovals, type AnsweredRemoval } from './answered-removals.js';
import { checkExplicitIds, validateFormDefinition } from './definition/index.js';
import { lockedForm } from './locked-form.js';
import { storeFormDefinition, type FormActor, type StoredForm } from './store-form-definition.js';

export interface SaveFormInput {
  companyId: string;
  id: string;
  /** the authoring file (the format the CLI imports); its slug must be the form's */
  definition: unknown;
  /** removing questions or choices that stored responses answer needs this (their answers stay stored) */
  confirmRemovals?: boolean;
  /** check only: the field errors and the answered removals, nothing written */
  dryRun?: boolean;
  actor: FormActor;
}

export type SaveFormResult = { dryRun: true; answeredRemovals: AnsweredRemoval[] } | ({ dryRun: false } & StoredForm);

/**
 * Saves the builder's definition over the company's form: the import's validation, ids kept by
 * key (explicit ids must be the current ones), a version recorded. A save that drops answered
 * questions or choices is refused until confirmed (`confirmRemovals`); a dry run lists them
 * first. Stored answers are never deleted.
 */
export async function saveForm(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: SaveFormInput): Promise<SaveFormResult> {
  const { companyId, actor } = input;
  const validated = validateFormDefinition(input.definition);
  return db.transaction(async (tx) => {
    const form = await lockedForm(tx, companyId, input.id);
    if (!validated.ok) throw validationError(validated.errors, 'The form definition is invalid.');
    const def = validated.value;
    const errors = checkExplicitIds(def, form.content);
    if (def.slug !== form.slug) errors.push(fieldError('slug', 'invalid_value', 'The slug of a form cannot change (its public link and imports name it); duplicate the form for a new slug.'));
    if (errors.length) throw validationError(errors, 'The form definition is invalid.');
    const answered = await answeredRemovals(tx, { companyId, formId: form.id, previous: form.content, next: def });
    if (input.dryRun) return { dryRun: true, answeredRemovals: answered };
    if (answered.length > 0 && input.confirmRemovals !== true) {
      const named = answered.map((removal) => `${removal.key} (${removal.responses})`).join(', ');
      throw validationError([fieldError('confirmRemovals', 'required', `Confirm the removal of answered items; their stored answers are kept: ${named}.`)], 'The save removes answered questions or options.');
    }
    return { dryRun: false, ...(await storeFormDefinition(tx, deps, { companyId, def, previous: form, actor })) };
  });
}
