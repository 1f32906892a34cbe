import type { DbOrTx } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { toPublicContent, type ResolvedForm } from './definition.js';
import { findForm } from './find-form.js';

/**
 * `content` of GET /forms/{id}. Every question carries `options` (empty unless it is a choice
 * type), so clients can read the list without testing the type first; rows and columns are
 * MATRIX only.
 */
export function detailContent(resolved: ResolvedForm) {
  const { sections } = toPublicContent(resolved);
  return {
    sections: sections.map((section) => ({
      ...section,
      questions: section.questions.map((question) => ({ ...question, options: question.options ?? [] })),
    })),
  };
}

/** The form detail of the API; another company's form, or no form, is NOT_FOUND alike. */
export async function getForm(db: DbOrTx, companyId: string, id: string) {
  const form = await findForm(db, companyId, id);
  if (!form) throw notFound('Form');
  return { id: form.id, name: form.name, content: detailContent(form.content) };
}
