import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { resolveEntityRefs, type EntityKind } from '../entities/index.js';
import { pipedDimKeys, type FormRecord } from '../forms/index.js';

const ENTITY_KINDS = new Set<string>(['course', 'teacher', 'unit']);

/** Only the dims the form's texts name: a form that pipes none costs no query. */
const pipedDims = (form: FormRecord) => {
  const named = pipedDimKeys(form.content);
  return form.content.dims.filter((dim) => named.has(dim.key));
};

/** Whether the form's pages show an entity's name (read afresh on each page: it can be renamed). */
export const pipesEntities = (form: FormRecord): boolean => pipedDims(form).some((dim) => ENTITY_KINDS.has(dim.kind));

/**
 * The dims a page may pipe (`{{dims.key}}`), as the respondent reads them: an entity dim (an id on
 * an invite, an id or code in a link) by the entity's name, other dims as given. Only the form's
 * declared dims its texts name; an entity the company does not have reads as nothing. One query.
 */
export async function pipingDims(db: DbOrTx, deps: NoDeps, input: { form: FormRecord; dims: Record<string, string> | undefined }): Promise<Record<string, string>> {
  const given = input.dims ?? {};
  const declared = pipedDims(input.form).filter((dim) => typeof given[dim.key] === 'string');
  const refs = declared.filter((dim) => ENTITY_KINDS.has(dim.kind)).map((dim) => ({ kind: dim.kind as EntityKind, value: given[dim.key] }));
  const found = refs.length > 0 ? await resolveEntityRefs(db, deps, { companyId: input.form.companyId, refs }) : null;
  return Object.fromEntries(
    declared.flatMap((dim) => {
      if (!ENTITY_KINDS.has(dim.kind)) return [[dim.key, given[dim.key]]];
      const entity = found?.get(dim.kind as EntityKind, given[dim.key]);
      return entity ? [[dim.key, entity.name]] : [];
    }),
  );
}
