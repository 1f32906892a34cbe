import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { formIsClosed } from './find-form.js';
import { lockedForm } from './locked-form.js';
import { definitionOf, storeFormDefinition, type FormActor } from './store-form-definition.js';

/**
 * Closes (the links answer 410 FORM_CLOSED) or reopens the company's form; a version records it.
 * Reopening also drops a closing date that has passed, which would keep the form closed.
 */
export async function setFormClosed(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; id: string; closed: boolean; actor: FormActor }) {
  const { companyId, actor } = input;
  return db.transaction(async (tx) => {
    const form = await lockedForm(tx, companyId, input.id);
    const def = definitionOf(form);
    const settings = { ...def.settings, isClosed: input.closed };
    if (!input.closed && formIsClosed({ isClosed: false, closesAt: form.closesAt }, deps.clock.now())) delete settings.closesAt;
    return (await storeFormDefinition(tx, deps, { companyId, def: { ...def, settings }, previous: form, actor })).form;
  });
}
