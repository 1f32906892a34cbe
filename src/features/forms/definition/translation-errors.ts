/**
 * The hand checks of a file's `translations` (TypeBox checks shapes and lengths): languages of the
 * pages only and never the form's own, which the file must then name; keys the form has; no text
 * for something the form leaves out (a description it lacks); piping as in the texts translated.
 */
import type { FieldError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import { pipeChecker } from './piping.js';
import { isRecord } from './tree.js';
import { FORM_LANGUAGES } from './vocabulary.js';

type Json = Record<string, unknown>;
const CHOICE_LISTS = ['options', 'rows', 'columns'] as const;

const records = (list: unknown): Json[] => (Array.isArray(list) ? list.filter(isRecord) : []);
const hasText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

export function translationErrors(form: Json): FieldError[] {
  const { translations } = form;
  if (!isRecord(translations) || Object.keys(translations).length === 0) return [];
  const own = isRecord(form.settings) ? form.settings.language : undefined;
  const errors: FieldError[] = [];
  // the pages offer the form's own language beside its translations: they must know which it is
  if (own === undefined) errors.push(fieldError('settings.language', 'required', 'A form with translations must name the language of its own texts.'));
  const check = pipeChecker(form);
  for (const [language, translation] of Object.entries(translations)) {
    const path = childPath('translations', language);
    if (!FORM_LANGUAGES.some((known) => known === language)) {
      errors.push(fieldError(path, 'invalid_value', `${language} is not a language of the pages (${FORM_LANGUAGES.join(', ')}).`));
    } else if (language === own) {
      errors.push(fieldError(path, 'invalid_value', `${language} is the form's own language (settings.language): its texts are the form's.`));
    } else if (isRecord(translation)) {
      errors.push(...formTextErrors(form, translation, path), ...sectionErrors(form, translation, path, check), ...questionErrors(form, translation, path, check));
    }
  }
  return errors;
}

/** A text the form itself leaves out (no description, no thank-you text) has nothing to translate. */
function untranslatable(path: string, what: string): FieldError {
  return fieldError(path, 'not_applicable', `The form has no ${what} to translate.`);
}

function formTextErrors(form: Json, translation: Json, path: string): FieldError[] {
  return (['description', 'thankYou'] as const)
    .filter((text) => translation[text] !== undefined && !hasText(form[text]))
    .map((text) => untranslatable(childPath(path, text), text === 'thankYou' ? 'thank-you text' : 'description'));
}

function sectionErrors(form: Json, translation: Json, path: string, check: ReturnType<typeof pipeChecker>): FieldError[] {
  if (!isRecord(translation.sections)) return [];
  const sections = records(form.sections);
  return Object.entries(translation.sections).flatMap(([key, texts]) => {
    const at = childPath(childPath(path, 'sections'), key);
    const index = sections.findIndex((section) => section.key === key);
    if (index === -1) return [fieldError(at, 'unknown_reference', `The form has no section with the key "${key}".`)];
    if (!isRecord(texts)) return [];
    return [
      ...(texts.description !== undefined && !hasText(sections[index].description) ? [untranslatable(childPath(at, 'description'), 'description for this section')] : []),
      ...check(texts.name, childPath(at, 'name'), index),
      ...check(texts.description, childPath(at, 'description'), index),
    ];
  });
}

function questionErrors(form: Json, translation: Json, path: string, check: ReturnType<typeof pipeChecker>): FieldError[] {
  if (!isRecord(translation.questions)) return [];
  const located = new Map<unknown, { question: Json; sectionIndex: number }>();
  records(form.sections).forEach((section, sectionIndex) => {
    for (const question of records(section.questions)) if (!located.has(question.key)) located.set(question.key, { question, sectionIndex });
  });
  return Object.entries(translation.questions).flatMap(([key, texts]) => {
    const at = childPath(childPath(path, 'questions'), key);
    const found = located.get(key);
    if (!found) return [fieldError(at, 'unknown_reference', `The form has no question with the key "${key}".`)];
    if (!isRecord(texts)) return [];
    const { question, sectionIndex } = found;
    return [
      ...(texts.description !== undefined && !hasText(question.description) ? [untranslatable(childPath(at, 'description'), 'description for this question')] : []),
      ...check(texts.name, childPath(at, 'name'), sectionIndex),
      ...check(texts.description, childPath(at, 'description'), sectionIndex),
      ...CHOICE_LISTS.flatMap((list) => {
        if (!isRecord(texts[list])) return [];
        const keys = new Set(records(question[list]).map((choice) => choice.key));
        return Object.keys(texts[list]).filter((choiceKey) => !keys.has(choiceKey)).map((choiceKey) =>
          fieldError(childPath(childPath(at, list), choiceKey), 'unknown_reference', `Question "${key}" has no ${list.slice(0, -1)} with the key "${choiceKey}".`),
        );
      }),
    ];
  });
}
