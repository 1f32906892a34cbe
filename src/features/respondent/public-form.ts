import { toPublicContent, type PublicFormContent } from '../forms/definition/index.js';
import type { FormLanguage } from '../forms/definition/vocabulary.js';
import type { FormRecord } from '../forms/find-form.js';

/** The form as a respondent sees it: the API's public content (no keys, no internal settings). */
export interface PublicForm {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  /** settings.language; null: the company's locale, else the respondent's Accept-Language */
  language: FormLanguage | null;
  content: PublicFormContent;
}

export function publicForm(form: FormRecord): PublicForm {
  return { id: form.id, slug: form.slug, name: form.name, description: form.description, language: form.language, content: toPublicContent(form.content) };
}
