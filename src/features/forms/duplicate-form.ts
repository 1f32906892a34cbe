import { and, eq, like } from 'drizzle-orm';
import { lockForTransaction } from '../../platform/db/advisory-lock.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validateFormDefinition, type FormDefinition } from './definition/index.js';
import { findForm } from './find-form.js';
import { definitionOf, storeFormDefinition, type FormActor } from './store-form-definition.js';

const SLUG_MAX = 63;

/** The file without its ids: the copy is a new form whose questions share nothing with the original's answers. */
function withoutIds(def: FormDefinition): unknown {
  return JSON.parse(JSON.stringify(def, (key, value) => (key === 'id' ? undefined : value)));
}

/** `<slug>-copy`, else `<slug>-copy-2`, ... : the first the company does not use. */
async function freeSlug(db: DbOrTx, companyId: string, slug: string): Promise<string> {
  const base = `${slug.slice(0, SLUG_MAX - 9)}-copy`;
  const used = new Set((await db.select({ slug: forms.slug }).from(forms).where(and(eq(forms.companyId, companyId), like(forms.slug, `${base}%`)))).map((row) => row.slug));
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** A copy of the company's form (questions, settings, e-mail), open, with new ids and its own slug. */
export async function duplicateForm(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; id: string; actor: FormActor }) {
  const { companyId, actor } = input;
  return db.transaction(async (tx) => {
    const source = await findForm(tx, deps, { companyId, id: input.id });
    if (!source) throw notFound('Form');
    // one duplicate at a time per company: two at once would pick the same free slug
    await lockForTransaction(tx, 'form-duplicate', companyId);
    const original = definitionOf(source);
    const slug = await freeSlug(tx, companyId, source.slug);
    const copy = validateFormDefinition({
      ...(withoutIds(original) as object),
      slug,
      name: `${original.name.slice(0, 193)} (copy)`,
      // the copy starts open: no closing date carried over (the original's may have passed)
      settings: { ...original.settings, isClosed: false, closesAt: undefined },
    });
    // the original passed the same validation, and only the slug and name changed
    if (!copy.ok) throw new Error(`duplicate of ${source.id} is invalid: ${JSON.stringify(copy.errors)}`);
    await lockForTransaction(tx, 'form-import', `${companyId}/${slug}`);
    return (await storeFormDefinition(tx, deps, { companyId, def: copy.value, previous: null, actor })).form;
  });
}
