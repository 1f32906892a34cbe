import { toPublicContent, type PublicFormContent } from '../forms/definition/index.js';
import type { FormRecord } from '../forms/find-form.js';

/** The form as a respondent sees it: the API's public content (no keys, no internal settings). */
export interface PublicForm {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  content: PublicFormContent;
}

export function publicForm(form: FormRecord): PublicForm {
  return { id: form.id, slug: form.slug, name: form.name, description: form.description, content: toPublicContent(form.content) };
}
