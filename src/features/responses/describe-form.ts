import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import type { NoDeps } from '../../lib/service.js';
import { findForm, toPublicContent } from '../forms/index.js';

/**
 * A form as the panel's responses and statistics pages read it: its questions (labels by option
 * id, to show answers as the respondent saw them), its declared dims (the filter controls) and
 * whether it is anonymous (the statistics page explains suppression). NOT_FOUND for another company's form.
 */
export async function describeForm(db: DbOrTx, deps: NoDeps, input: { companyId: string; id: string }) {
  const form = await findForm(db, deps, input);
  if (!form) throw notFound('Form');
  return {
    id: form.id,
    name: form.name,
    slug: form.slug,
    anonymous: form.anonymous,
    responseCount: form.responseCount,
    dims: form.content.dims.map((dim) => ({ key: dim.key, kind: dim.kind })),
    sections: toPublicContent(form.content).sections,
  };
}
export type DescribedForm = Awaited<ReturnType<typeof describeForm>>;
