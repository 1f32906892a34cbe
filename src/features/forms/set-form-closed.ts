import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { lockedForm } from './locked-form.js';
import { definitionOf, storeFormDefinition, type FormActor } from './store-form-definition.js';

/** Closes (the links answer 410 FORM_CLOSED) or reopens the company's form; a version records it. */
export async function setFormClosed(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; id: string; closed: boolean; actor: FormActor }) {
  const { companyId, actor } = input;
  return db.transaction(async (tx) => {
    const form = await lockedForm(tx, companyId, input.id);
    const def = definitionOf(form);
    return (await storeFormDefinition(tx, deps, { companyId, def: { ...def, settings: { ...def.settings, isClosed: input.closed } }, previous: form, actor })).form;
  });
}
