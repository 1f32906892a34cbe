/**
 * Piping: section and question texts (name, description) may name `{{answer.<question key>}}`,
 * `{{respondent.name}}` and `{{dims.<key>}}` (a declared dim or hidden field). The respondent
 * pages fill them in on the server (respondent/pipe-texts.ts); here the references are checked
 * when a definition is saved, so a page never meets one it cannot fill. Browser-safe.
 */
import type { FieldError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import { isRecord } from './tree.js';
import type { FormTranslations } from './types.js';

/** `{{ reference }}`, spaces inside the braces allowed. */
export const PIPE_REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;

export type PipeReference = { kind: 'answer'; key: string } | { kind: 'respondent' } | { kind: 'dim'; key: string } | { kind: 'unknown' };

export function readReference(reference: string): PipeReference {
  if (reference === 'respondent.name') return { kind: 'respondent' };
  const answer = /^answer\.(.+)$/.exec(reference);
  if (answer) return { kind: 'answer', key: answer[1] };
  const dim = /^dims\.(.+)$/.exec(reference);
  if (dim) return { kind: 'dim', key: dim[1] };
  return { kind: 'unknown' };
}

/** The dim keys the form's section and question texts pipe, in its own language or a translation. */
export function pipedDimKeys(content: { sections: { name: string; description?: string; questions: { name: string; description?: string }[] }[]; translations?: FormTranslations }): Set<string> {
  const translated = Object.values(content.translations ?? {}).flatMap((t) => [
    ...Object.values(t?.sections ?? {}).flatMap((section) => [section.name, section.description]),
    ...Object.values(t?.questions ?? {}).flatMap((question) => [question.name, question.description]),
  ]);
  const texts = [...content.sections.flatMap((section) => [section.name, section.description, ...section.questions.flatMap((q) => [q.name, q.description])]), ...translated];
  const keys = texts.flatMap((text) => (text?.includes('{{') ? [...text.matchAll(PIPE_REFERENCE)].map(([, inner]) => readReference(inner)) : []));
  return new Set(keys.flatMap((reference) => (reference.kind === 'dim' ? [reference.key] : [])));
}

const HINT = 'use {{answer.<question key>}}, {{respondent.name}} or {{dims.<key>}}';
/** A MATRIX answer is several pairs: there is no one text to put in a sentence. */
const UNPIPED_TYPES = new Set(['MATRIX']);

type PipeCheck = (text: unknown, path: string, sectionIndex: number) => FieldError[];

/**
 * The check of one text of the form's section `sectionIndex` (its own or a translation's): one
 * error per text and problem, naming the first reference at fault.
 */
export function pipeChecker(form: Record<string, unknown>): PipeCheck {
  const sections = Array.isArray(form.sections) ? form.sections.filter(isRecord) : [];
  const sectionOf = new Map<string, { index: number; type: unknown }>();
  sections.forEach((section, index) => {
    for (const question of Array.isArray(section.questions) ? section.questions.filter(isRecord) : []) {
      if (typeof question.key === 'string' && !sectionOf.has(question.key)) sectionOf.set(question.key, { index, type: question.type });
    }
  });
  const dimKeys = new Set([
    ...(Array.isArray(form.dims) ? form.dims.filter(isRecord).map((dim) => dim.key) : []),
    ...(Array.isArray(form.hiddenFields) ? form.hiddenFields : []),
  ]);
  return (text, path, sectionIndex) => {
    if (typeof text !== 'string') return [];
    for (const [whole, inner] of text.matchAll(PIPE_REFERENCE)) {
      const reference = readReference(inner);
      if (reference.kind === 'unknown') return [fieldError(path, 'unknown_reference', `${whole} is not a reference: ${HINT}.`)];
      if (reference.kind === 'dim' && !dimKeys.has(reference.key)) return [fieldError(path, 'unknown_reference', `${whole} names no declared dim or hidden field.`)];
      if (reference.kind !== 'answer') continue;
      const target = sectionOf.get(reference.key);
      if (!target) return [fieldError(path, 'unknown_reference', `${whole} names no question of this form.`)];
      if (target.index >= sectionIndex) return [fieldError(path, 'invalid_reference', `${whole} must name a question of an earlier section: its answer is known once that section is sent.`)];
      if (UNPIPED_TYPES.has(target.type as string)) return [fieldError(path, 'invalid_reference', `${whole} names a ${String(target.type)} question, whose answer is not one text.`)];
    }
    return [];
  };
}

/** The piping errors of the form's own section and question texts. */
export function pipingErrors(form: Record<string, unknown>): FieldError[] {
  const sections = Array.isArray(form.sections) ? form.sections.filter(isRecord) : [];
  const check = pipeChecker(form);
  return sections.flatMap((section, s) => {
    const sectionPath = childPath('sections', s);
    const questions = Array.isArray(section.questions) ? section.questions : [];
    return [
      ...check(section.name, childPath(sectionPath, 'name'), s),
      ...check(section.description, childPath(sectionPath, 'description'), s),
      ...questions.flatMap((question, q) => {
        if (!isRecord(question)) return [];
        const questionPath = childPath(childPath(sectionPath, 'questions'), q);
        return [...check(question.name, childPath(questionPath, 'name'), s), ...check(question.description, childPath(questionPath, 'description'), s)];
      }),
    ];
  });
}
