/**
 * Reads the answers of one section from an HTML form's fields. Browser-safe: the server reads a
 * posted body with it and the page script reads the live form with it, so a draft autosaved by
 * the script and a section posted without JavaScript hold the same values.
 *
 * Field names: `q.<questionId>` (CHECKBOX repeats it), `q.<questionId>.<rowId>` for a MATRIX row
 * and `q.<questionId>.<optionId>` for a RANKING option's position. FILE answers are not fields
 * (the server stores uploads; see pages/routes.ts).
 */
import type { FieldError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import type { Answers, ResolvedQuestion } from '../../forms/definition/types.js';
import { isAnswered } from '../../forms/rules/index.js';

/** All values posted under a name (none: empty list). */
export type FieldValues = (name: string) => string[];

export const fieldName = (questionId: string, part?: string) => (part === undefined ? `q.${questionId}` : `q.${questionId}.${part}`);

export interface SectionAnswers {
  /** answers given in the section (unanswered questions absent) */
  answers: Answers;
  /** values that cannot become an answer at all (a number field holding words, a broken ranking) */
  errors: FieldError[];
}

/** Every field name the questions' controls post (FILE questions have none). */
export function fieldNames(questions: ResolvedQuestion[]): string[] {
  return questions.flatMap((q) => {
    if (q.type === 'FILE') return [];
    if (q.type === 'RANKING') return (q.options ?? []).map((o) => fieldName(q.id, o.id));
    if (q.type === 'MATRIX') return (q.rows ?? []).map((r) => fieldName(q.id, r.id));
    return [fieldName(q.id)];
  });
}

const first = (values: FieldValues, name: string) => (values(name)[0] ?? '').trim();

type Reader = (question: ResolvedQuestion, values: FieldValues) => unknown | FieldError;

const text: Reader = (q, values) => (values(fieldName(q.id))[0] ?? '').replace(/\r\n/g, '\n');
const trimmed: Reader = (q, values) => first(values, fieldName(q.id));

function number(q: ResolvedQuestion, values: FieldValues): unknown {
  const raw = first(values, fieldName(q.id)).replace(',', '.');
  if (raw === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : fieldError(childPath('answers', q.id), 'invalid_type', 'The answer must be a number.');
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * A datetime-local field has no zone: without script the page says the time is UTC; the script
 * posts the instant itself. Either is stored as the contract writes instants (UTC, milliseconds).
 */
function dateTime(q: ResolvedQuestion, values: FieldValues): unknown {
  const raw = first(values, fieldName(q.id));
  const zoned = LOCAL_DATE_TIME.test(raw) ? `${raw}Z` : raw;
  const instant = /(Z|[+-]\d{2}:\d{2})$/.test(zoned) && LOCAL_DATE_TIME.test(zoned.replace(/(Z|[+-]\d{2}:\d{2})$/, '')) ? Date.parse(zoned) : NaN;
  return Number.isNaN(instant) ? zoned : new Date(instant).toISOString();
}

function boolean(q: ResolvedQuestion, values: FieldValues): unknown {
  const raw = first(values, fieldName(q.id));
  return raw === 'true' ? true : raw === 'false' ? false : raw === '' ? undefined : raw;
}

const optionList: Reader = (q, values) => values(fieldName(q.id)).filter((v) => v !== '');

/** Positions 1..n per option, ordered into the list of option ids; blank everywhere: no answer. */
function ranking(q: ResolvedQuestion, values: FieldValues): unknown {
  const options = q.options ?? [];
  const positions = options.map((option) => ({ id: option.id, raw: first(values, fieldName(q.id, option.id)) }));
  if (positions.every((p) => p.raw === '')) return undefined;
  const path = childPath('answers', q.id);
  if (positions.some((p) => p.raw === '')) return fieldError(path, 'too_short', `A ranking must order all ${options.length} options.`);
  const taken = new Set(positions.map((p) => p.raw));
  if (taken.size !== positions.length) return fieldError(path, 'not_unique', 'Each position may be used only once.');
  return [...positions].sort((a, b) => Number(a.raw) - Number(b.raw)).map((p) => p.id);
}

function matrix(q: ResolvedQuestion, values: FieldValues): unknown {
  const cells = (q.rows ?? []).map((row) => [row.id, first(values, fieldName(q.id, row.id))] as const).filter(([, column]) => column !== '');
  return Object.fromEntries(cells);
}

const READERS: Record<ResolvedQuestion['type'], Reader | null> = {
  TEXT: text,
  PARAGRAPH: text,
  DATE: trimmed,
  TIME: trimmed,
  DATETIME: dateTime,
  NUMBER: number,
  RANGE: number,
  NPS: number,
  STAR: number,
  BOOLEAN: boolean,
  RADIO: trimmed,
  SELECT: trimmed,
  CHECKBOX: optionList,
  RANKING: ranking,
  MATRIX: matrix,
  FILE: null,
};

const isFieldError = (value: unknown): value is FieldError =>
  typeof value === 'object' && value !== null && 'code' in value && 'path' in value && 'message' in value;

export function readSectionAnswers(questions: ResolvedQuestion[], values: FieldValues): SectionAnswers {
  const answers: Answers = {};
  const errors: FieldError[] = [];
  for (const question of questions) {
    const read = READERS[question.type];
    if (!read) continue;
    const value = read(question, values);
    if (isFieldError(value)) errors.push(value);
    else if (isAnswered(value)) answers[question.id] = value;
  }
  return { answers, errors };
}
