import { toPublicContent, type PublicFormContent } from '../forms/index.js';
import type { FormLanguage } from '../forms/index.js';
import type { FormRecord } from '../forms/index.js';

/** The form as a respondent sees it: the API's public content (no keys, no internal settings). */
export interface PublicForm {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  /** settings.language; null: the respondent's Accept-Language (en, pt-BR, es), else the company's locale */
  language: FormLanguage | null;
  content: PublicFormContent;
}

export function publicForm(form: FormRecord): PublicForm {
  return { id: form.id, slug: form.slug, name: form.name, description: form.description, language: form.language, content: toPublicContent(form.content) };
}
