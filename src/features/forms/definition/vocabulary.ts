/** The vocabulary of form definitions: question types, dim kinds and sources, per-type rules and limits. Browser-safe. */
import { isIsoDate, isIsoDateTime } from '../../dims/canonical.js';

export const QUESTION_TYPES = [
  'TEXT', 'PARAGRAPH', 'DATE', 'TIME', 'DATETIME', 'NUMBER', 'RANGE', 'NPS', 'STAR',
  'BOOLEAN', 'RADIO', 'SELECT', 'CHECKBOX', 'RANKING', 'MATRIX', 'FILE',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const DIM_KINDS = ['course', 'teacher', 'unit', 'text', 'number', 'date'] as const;
export type DimKind = (typeof DIM_KINDS)[number];

export const DIM_SOURCES = ['invite', 'link', 'answer', 'class'] as const;
/** Languages of the respondent pages (settings.language). */
export const FORM_LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export type FormLanguage = (typeof FORM_LANGUAGES)[number];
export type DimSource = (typeof DIM_SOURCES)[number];

/** Where each kind of dim may come from. A class has one course and one unit but possibly several teachers. */
export const DIM_SOURCES_BY_KIND: Record<DimKind, readonly DimSource[]> = {
  course: ['invite', 'link', 'answer', 'class'],
  teacher: ['invite', 'link', 'answer'],
  unit: ['invite', 'link', 'answer', 'class'],
  text: ['invite', 'link', 'answer'],
  number: ['invite', 'link', 'answer'],
  date: ['invite', 'link', 'answer'],
};

/** Question types whose answer can feed a dim with source "answer" (choice: the chosen option's key). */
export const DIM_ANSWER_TYPES: Record<DimKind, readonly QuestionType[]> = {
  course: ['RADIO', 'SELECT'],
  teacher: ['RADIO', 'SELECT'],
  unit: ['RADIO', 'SELECT'],
  text: ['TEXT', 'RADIO', 'SELECT'],
  number: ['NUMBER', 'RANGE', 'NPS', 'STAR'],
  date: ['DATE'],
};

export type TypedProperty = 'options' | 'rows' | 'columns' | 'min' | 'max' | 'step';
export const TYPED_PROPERTIES: readonly TypedProperty[] = ['options', 'rows', 'columns', 'min', 'max', 'step'];

/** Type-specific question properties: which a type allows, and which of those it requires. */
export const TYPE_PROPERTIES: Record<QuestionType, Partial<Record<TypedProperty, 'required' | 'optional'>>> = {
  TEXT: {}, PARAGRAPH: {}, DATE: {}, TIME: {}, DATETIME: {}, NPS: {}, BOOLEAN: {}, FILE: {},
  NUMBER: { min: 'optional', max: 'optional', step: 'optional' },
  RANGE: { min: 'required', max: 'required', step: 'optional' },
  STAR: { max: 'optional' },
  RADIO: { options: 'required' },
  SELECT: { options: 'required' },
  CHECKBOX: { options: 'required' },
  RANKING: { options: 'required' },
  MATRIX: { rows: 'required', columns: 'required' },
};

/** Types answered with option ids: RADIO, SELECT, CHECKBOX, RANKING. */
export const CHOICE_TYPES: readonly QuestionType[] = QUESTION_TYPES.filter((type) => TYPE_PROPERTIES[type].options === 'required');

export const STAR_DEFAULT_MAX = 5;
export const STAR_MAX_LIMIT = 10;
export const RANGE_DEFAULT_STEP = 1;
export const MAX_TEXT_ANSWER_LENGTH = 10_000;
export const MAX_CONDITION_DEPTH = 8;

/** What a condition operand on a question of each type must be; "none" allows only `answered`. */
export type OperandKind = 'option' | 'boolean' | 'number' | 'text' | 'date' | 'time' | 'datetime' | 'none';
export const OPERAND_KIND: Record<QuestionType, OperandKind> = {
  TEXT: 'text', PARAGRAPH: 'text', DATE: 'date', TIME: 'time', DATETIME: 'datetime',
  NUMBER: 'number', RANGE: 'number', NPS: 'number', STAR: 'number', BOOLEAN: 'boolean',
  RADIO: 'option', SELECT: 'option', CHECKBOX: 'option', RANKING: 'none', MATRIX: 'none', FILE: 'none',
};
export const ORDERED_OPERANDS: ReadonlySet<OperandKind> = new Set(['number', 'date', 'time', 'datetime']);

const TIME_RE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
export function isTime(text: string): boolean {
  return TIME_RE.test(text);
}

export const SCALAR_OPERAND_RULES: Record<Exclude<OperandKind, 'option' | 'none'>, { test: (v: unknown) => boolean; expected: string }> = {
  boolean: { test: (v) => typeof v === 'boolean', expected: 'a boolean' },
  number: { test: (v) => typeof v === 'number', expected: 'a number' },
  text: { test: (v) => typeof v === 'string', expected: 'a string' },
  date: { test: (v) => typeof v === 'string' && isIsoDate(v), expected: 'a date as YYYY-MM-DD' },
  time: { test: (v) => typeof v === 'string' && isTime(v), expected: 'a time as HH:MM' },
  datetime: { test: (v) => typeof v === 'string' && isIsoDateTime(v), expected: 'an ISO 8601 timestamp with a zone' },
};

export const CONDITION_OPERATORS = ['equals', 'notEquals', 'in', 'gte', 'lte', 'answered'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
