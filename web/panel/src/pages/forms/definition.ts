/**
 * The builder's model: the form definition file (the format the CLI imports, its types from the
 * server's browser-safe definition module) plus a client-only `uid` per section and question, so
 * React keeps focus while a key is edited. `uid`s never leave the browser (toFile).
 */
import type { ConditionDefinition, FormDefinition, LeafConditionDefinition, QuestionDefinition, ResolvedForm, SectionDefinition } from '../../../../../src/features/forms/definition/types';
import { QUESTION_TYPES, TYPE_PROPERTIES, type QuestionType } from '../../../../../src/features/forms/definition/vocabulary';
import { visibleQuestionIds } from '../../../../../src/features/forms/rules/index';

export { QUESTION_TYPES, type QuestionType, type ConditionDefinition, type LeafConditionDefinition };
export type Question = QuestionDefinition & { uid: string };
export type Section = Omit<SectionDefinition, 'questions'> & { uid: string; questions: Question[] };
export type Draft = Omit<FormDefinition, 'sections'> & { sections: Section[] };
export type ChoiceList = 'options' | 'rows' | 'columns';

let counter = 0;
const uid = () => `u${++counter}`;

/** A key not yet used among `taken`: prefix-1, prefix-2, ... */
export function freeKey(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

export function fromFile(file: unknown): Draft {
  const def = file as FormDefinition;
  return {
    ...def,
    settings: { ...{ isPublic: false, isClosed: false, requiresInvite: false, anonymous: false }, ...def.settings },
    dims: def.dims ?? [],
    sections: (def.sections ?? []).map((section) => ({ ...section, uid: uid(), questions: (section.questions ?? []).map((q) => ({ ...q, uid: uid() })) })),
  };
}

/** The file the server validates: the draft without uids. */
export function toFile(draft: Draft): FormDefinition {
  return { ...draft, sections: draft.sections.map(({ uid: _s, questions, ...section }) => ({ ...section, questions: questions.map(({ uid: _q, ...q }) => q) })) };
}

export function allQuestions(draft: Draft): Question[] {
  return draft.sections.flatMap((section) => section.questions);
}

export function newQuestion(draft: Draft): Question {
  return { uid: uid(), key: freeKey('q', allQuestions(draft).map((q) => q.key)), name: '', type: 'TEXT', mandatory: false };
}

export function newSection(draft: Draft): Section {
  return { uid: uid(), key: freeKey('section-', draft.sections.map((s) => s.key)), name: '', questions: [] };
}

/** The question with its type changed: properties the new type does not take are dropped, required ones get a start. */
export function withType(question: Question, type: QuestionType): Question {
  const { options, rows, columns, min, max, step, ...rest } = question;
  const kept = { options, rows, columns, min, max, step };
  const next: Question = { ...rest, type };
  for (const [property, need] of Object.entries(TYPE_PROPERTIES[type]) as [keyof typeof kept, string][]) {
    if (kept[property] !== undefined) Object.assign(next, { [property]: kept[property] });
    else if (need === 'required') Object.assign(next, { [property]: property === 'min' ? 0 : property === 'max' ? 10 : [{ key: 'A', name: 'A' }] });
  }
  return next;
}

export function typeTakes(type: QuestionType, property: 'options' | 'rows' | 'columns' | 'min' | 'max' | 'step'): boolean {
  return TYPE_PROPERTIES[type][property] !== undefined;
}

/**
 * The draft as a stored form whose ids are its keys, so the respondent pages' one condition
 * evaluator (forms/rules) decides visibility in the builder: a choice operand is the option key,
 * which is here also its id.
 */
function asResolved(draft: Draft): ResolvedForm {
  const resolve = (condition: ConditionDefinition | undefined): ResolvedForm['sections'][number]['visibleIf'] => {
    if (!condition) return undefined;
    if ('all' in condition) return { all: condition.all.map((c) => resolve(c)!) };
    if ('any' in condition) return { any: condition.any.map((c) => resolve(c)!) };
    const { question, ...operators } = condition as LeafConditionDefinition;
    return { questionId: question, ...operators };
  };
  const choices = (list?: { key: string; name: string }[]) => list?.map((c, order) => ({ id: c.key, key: c.key, name: c.name, order }));
  return {
    version: 1,
    dims: [],
    sections: draft.sections.map((section) => ({
      id: section.key, key: section.key, name: section.name, visibleIf: resolve(section.visibleIf),
      questions: section.questions.map((q) => ({ id: q.key, key: q.key, name: q.name, type: q.type, mandatory: q.mandatory, options: choices(q.options), rows: choices(q.rows), columns: choices(q.columns), min: q.min, max: q.max, step: q.step, visibleIf: resolve(q.visibleIf) })),
    })),
  };
}

/** Keys of the questions shown with these tried answers (keyed by question key). */
export function visibleKeys(draft: Draft, answers: Record<string, unknown>): Set<string> {
  return visibleQuestionIds(asResolved(draft), answers);
}
