/**
 * A form in another of its languages. A translation is offered only when complete (every text the
 * form has, in that language): a page never mixes languages, so its `lang` is the language of all
 * its text. An incomplete one is kept and exported, and the panel says what it lacks. Browser-safe.
 */
import { childPath } from '../../../lib/field-errors.js';
import type { FormTranslation, FormTranslations, ResolvedForm } from './types.js';
import { FORM_LANGUAGES, type FormLanguage } from './vocabulary.js';

interface Texted {
  key: string;
  name: string;
  description?: string | null;
}
type ChoiceLists = Partial<Record<'options' | 'rows' | 'columns', { key: string; name: string }[]>>;

/** The texts of a form as both the stored form (with its record) and the builder's file have them. */
export interface FormTexts {
  name: string;
  description?: string | null;
  thankYou?: string;
  sections: (Texted & { questions: (Texted & ChoiceLists)[] })[];
}

const CHOICE_LISTS = ['options', 'rows', 'columns'] as const;

/** The paths (under the translation) of the texts of `form` the translation lacks. */
export function missingTranslations(form: FormTexts, translation: FormTranslation | undefined): string[] {
  const t = translation ?? {};
  const missing: string[] = [];
  const need = (has: unknown, given: unknown, path: string) => {
    if (has && given === undefined) missing.push(path);
  };
  need(true, t.name, 'name');
  need(form.description, t.description, 'description');
  need(form.thankYou, t.thankYou, 'thankYou');
  for (const section of form.sections) {
    const at = childPath('sections', section.key);
    need(true, t.sections?.[section.key]?.name, childPath(at, 'name'));
    need(section.description, t.sections?.[section.key]?.description, childPath(at, 'description'));
    for (const question of section.questions) {
      const qt = t.questions?.[question.key];
      const qAt = childPath('questions', question.key);
      need(true, qt?.name, childPath(qAt, 'name'));
      need(question.description, qt?.description, childPath(qAt, 'description'));
      for (const list of CHOICE_LISTS) for (const choice of question[list] ?? []) need(true, qt?.[list]?.[choice.key], childPath(childPath(qAt, list), choice.key));
    }
  }
  return missing;
}

/** The languages the pages offer: the form's own first, then each complete translation. */
export function offeredLanguages(own: FormLanguage | null | undefined, form: FormTexts, translations: FormTranslations | undefined): FormLanguage[] {
  if (!own) return [];
  const complete = FORM_LANGUAGES.filter((language) => language !== own && translations?.[language] && missingTranslations(form, translations[language]).length === 0);
  return [own, ...complete];
}

interface TranslatableForm {
  name: string;
  description: string | null;
  content: ResolvedForm;
}

/** The form with its texts in `language`; the form as it is for its own language or one it has no translation into. */
export function translateForm<T extends TranslatableForm>(form: T, language: FormLanguage): T {
  const t = form.content.translations?.[language];
  if (!t) return form;
  const sections = form.content.sections.map((section) => {
    const st = t.sections?.[section.key];
    const questions = section.questions.map((question) => {
      const qt = t.questions?.[question.key];
      const choices = Object.fromEntries(
        CHOICE_LISTS.filter((list) => question[list]).map((list) => [list, question[list]!.map((choice) => ({ ...choice, name: qt?.[list]?.[choice.key] ?? choice.name }))]),
      );
      return { ...question, ...choices, name: qt?.name ?? question.name, description: qt?.description ?? question.description };
    });
    return { ...section, name: st?.name ?? section.name, description: st?.description ?? section.description, questions };
  });
  const content: ResolvedForm = { ...form.content, sections, thankYou: t.thankYou ?? form.content.thankYou };
  return { ...form, name: t.name ?? form.name, description: t.description ?? form.description, content };
}
