import { offeredLanguages, type FormLanguage } from './definition/index.js';
import type { FormRecord } from './find-form.js';

/** The languages a stored form offers its respondents: its own first, then each complete translation (none without settings.language). */
export function formLanguages(form: Pick<FormRecord, 'name' | 'description' | 'language' | 'content'>): FormLanguage[] {
  const { content } = form;
  return offeredLanguages(form.language, { name: form.name, description: form.description, thankYou: content.thankYou, sections: content.sections }, content.translations);
}
