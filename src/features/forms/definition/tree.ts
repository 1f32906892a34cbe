/** Small pure helpers over definitions and resolved forms, shared by the definition and the rules. Browser-safe. */
import type { Condition, ResolvedQuestion, ResolvedSection } from './types.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops undefined properties so stored and exported JSON carry no empty keys. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function isCombinator<L>(condition: Condition<L>): condition is { all: Condition<L>[] } | { any: Condition<L>[] } {
  return isRecord(condition) && ('all' in condition || 'any' in condition);
}

/** The same tree with every leaf mapped (keys ↔ ids between the authoring file and the stored form). */
export function mapCondition<A, B>(condition: Condition<A>, mapLeaf: (leaf: A) => B): Condition<B> {
  if (isCombinator(condition)) {
    return 'all' in condition
      ? { all: condition.all.map((c) => mapCondition(c, mapLeaf)) }
      : { any: condition.any.map((c) => mapCondition(c, mapLeaf)) };
  }
  return mapLeaf(condition as A);
}

/** Every question of the form in document order, across sections. */
export function questionsOf(form: { sections: { questions: ResolvedQuestion[] }[] }): ResolvedQuestion[] {
  return form.sections.flatMap((section) => section.questions);
}

/** The types whose listed options a section's shuffleOptions shuffles (MATRIX rows and columns, scales and stars keep theirs). */
const SHUFFLED_OPTION_TYPES = new Set<ResolvedQuestion['type']>(['RADIO', 'SELECT', 'CHECKBOX', 'RANKING']);

/** The questions of a section whose options each respondent sees in their own order. */
export function optionShuffledQuestions(section: ResolvedSection): ResolvedQuestion[] {
  return section.shuffleOptions ? section.questions.filter((q) => SHUFFLED_OPTION_TYPES.has(q.type) && q.options) : [];
}
