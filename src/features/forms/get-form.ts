import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { toPublicContent, translateForm } from './definition/index.js';
import { findForm } from './find-form.js';
import { formLanguages } from './form-languages.js';

/** The form detail of the API; another company's form, or no form, is NOT_FOUND alike. */
export async function getForm(db: DbOrTx, deps: NoDeps, input: { companyId: string; id: string }) {
  const { companyId, id } = input;
  const form = await findForm(db, deps, { companyId, id });
  if (!form) throw notFound('Form');
  const detail = { id: form.id, name: form.name, content: toPublicContent(form.content) };
  const languages = formLanguages(form);
  if (languages.length < 2) return detail;
  // each further language as the same structure with its texts: a client renders it with the same code
  const translations = Object.fromEntries(languages.slice(1).map((language) => {
    const translated = translateForm(form, language);
    return [language, { name: translated.name, content: toPublicContent(translated.content) }];
  }));
  return { ...detail, languages, translations };
}
