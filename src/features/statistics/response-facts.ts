import type { Answers, QuestionType, ResolvedForm, ResolvedQuestion } from '../forms/index.js';
import { isAnswered } from '../forms/index.js';
import { dimCutKey, ORG_CUT_KEY, WHOLE_FORM, type Cut } from '../rollups/index.js';
import { sketchBucket } from './number-sketch.js';

/**
 * What one response adds to the figures: counted items, some with a value (summed, min/max).
 * The rollups store them per day and cut; a scan accumulates the same facts in memory, so both
 * paths compute identical figures.
 */
export interface Fact {
  questionId: string;
  questionType: string;
  item: string;
  value: number | null;
}


/** Scales with few, declared values: their histogram counts each value (exact figures). */
const SCALE_TYPES: readonly QuestionType[] = ['RANGE', 'STAR', 'NPS'];
export const NUMERIC_TYPES: readonly QuestionType[] = ['NUMBER', ...SCALE_TYPES];

/** Does a stored answer have the shape of the question's current type (a type change keeps the id)? */
function fitsType(type: QuestionType, answer: unknown): boolean {
  if ((NUMERIC_TYPES as string[]).includes(type)) return typeof answer === 'number';
  if (type === 'CHECKBOX' || type === 'RANKING' || type === 'FILE') return Array.isArray(answer);
  if (type === 'MATRIX') return typeof answer === 'object' && !Array.isArray(answer);
  if (type === 'BOOLEAN') return typeof answer === 'boolean';
  return typeof answer === 'string';
}

function questionFacts(question: ResolvedQuestion, answer: unknown): Fact[] {
  if (!fitsType(question.type, answer)) return [];
  const fact = (item: string, value: number | null = null): Fact => ({ questionId: question.id, questionType: question.type, item, value });
  switch (question.type) {
    case 'RADIO':
    case 'SELECT':
    case 'BOOLEAN':
      return [fact('answered'), fact(`o:${String(answer)}`)];
    case 'CHECKBOX':
      return [fact('answered'), ...(answer as string[]).map((option) => fact(`o:${option}`))];
    case 'RANKING':
      return [fact('answered'), ...(answer as string[]).map((option, index) => fact(`o:${option}`, index + 1))];
    case 'MATRIX':
      return [fact('answered'), ...Object.entries(answer as Record<string, string>).map(([row, column]) => fact(`c:${row}:${column}`))];
    case 'NUMBER':
      return [fact('answered', answer as number), fact(`b:${sketchBucket(answer as number)}`)];
    case 'RANGE':
    case 'STAR':
    case 'NPS':
      return [fact('answered', answer as number), fact(`v:${String(answer)}`)];
    default:
      return [fact('answered')];
  }
}

/** Timestamps arrive as Date from Drizzle's query builder and as text from raw SQL. */
export type FactSource = {
  answers: Answers;
  createdAt: Date | string;
  completedAt: Date | string | null;
};

/** The facts of one (already validated) response against the form it was recorded on. */
export function responseFacts(form: ResolvedForm, response: FactSource): Fact[] {
  const facts: Fact[] = [
    { questionId: '', questionType: '', item: 'responses', value: new Date(response.createdAt).getTime() },
    ...(response.completedAt ? [{ questionId: '', questionType: '', item: 'completed', value: null }] : []),
  ];
  for (const section of form.sections) {
    for (const question of section.questions) {
      const answer = response.answers[question.id];
      if (isAnswered(answer)) facts.push(...questionFacts(question, answer));
    }
  }
  return facts;
}

/** The unit ids of an org path /<root>/.../<unit>/, root first. */
export function orgAncestors(orgPath: string | null): string[] {
  return orgPath ? orgPath.split('/').filter((part) => part !== '') : [];
}

/** Every cut the response counts in. */
export function responseCuts(dims: Record<string, string>, orgPath: string | null): Cut[] {
  return [
    WHOLE_FORM,
    ...Object.entries(dims).map(([key, value]) => ({ key: dimCutKey(key), value })),
    ...orgAncestors(orgPath).map((unit) => ({ key: ORG_CUT_KEY, value: unit })),
  ];
}
