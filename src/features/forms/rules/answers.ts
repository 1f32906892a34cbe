/** Answer validation of a response against its stored form. Browser-safe: the respondent page runs the same checks. */
import type { FieldError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import { isIsoDate, isIsoDateTime } from '../../dims/canonical.js';
import { isRecord, questionsOf } from '../definition/tree.js';
import type { Answers, ResolvedForm, ResolvedQuestion } from '../definition/types.js';
import { isTime, MAX_TEXT_ANSWER_LENGTH, STAR_DEFAULT_MAX, type QuestionType } from '../definition/vocabulary.js';
import { isAnswered, visibleQuestionIds } from './visibility.js';

/** What a per-type check knows: the question, where its answer is, and whether the response is final. */
interface AnswerContext {
  question: ResolvedQuestion;
  path: string;
  complete: boolean;
}
type AnswerCheck = (value: unknown, context: AnswerContext) => FieldError[];

export interface ValidateAnswersOptions {
  /** a saved draft: skip the mandatory checks, which only apply when the response is finalized */
  partial?: boolean;
}

/**
 * Checks the answers of a response: unknown and hidden questions are rejected, every value must
 * fit its type and, unless partial, visible mandatory questions must be answered.
 */
export function validateAnswers(resolved: ResolvedForm, answers: Answers, options: ValidateAnswersOptions = {}): FieldError[] {
  if (!isRecord(answers)) return [fieldError('answers', 'invalid_type', 'answers must be an object keyed by question id.')];
  const questions = questionsOf(resolved);
  const known = new Set(questions.map((q) => q.id));
  const visible = visibleQuestionIds(resolved, answers);
  return [
    ...Object.keys(answers)
      .filter((id) => !known.has(id))
      .map((id) => fieldError(answerPath(id), 'unknown_field', 'The form has no question with this id.')),
    ...questions.flatMap((question) => questionAnswerErrors(question, answers, visible.has(question.id), !options.partial)),
  ];
}

function answerPath(questionId: string): string {
  return childPath('answers', questionId);
}

function questionAnswerErrors(question: ResolvedQuestion, answers: Answers, visible: boolean, complete: boolean): FieldError[] {
  const path = answerPath(question.id);
  const present = Object.hasOwn(answers, question.id);
  if (!visible) return present ? [fieldError(path, 'not_applicable', 'This question is hidden by the other answers and must not be answered.')] : [];
  const value = present ? answers[question.id] : undefined;
  const errors = present ? ANSWER_CHECKS[question.type](value, { question, path, complete }) : [];
  if (errors.length === 0 && complete && question.mandatory && !isAnswered(value)) {
    return [fieldError(path, 'required', `Question "${question.name}" must be answered.`)];
  }
  return errors;
}

function checkText(value: unknown, { path }: AnswerContext): FieldError[] {
  if (typeof value !== 'string') return [fieldError(path, 'invalid_type', 'The answer must be a string.')];
  return value.length > MAX_TEXT_ANSWER_LENGTH
    ? [fieldError(path, 'too_long', `The answer must be at most ${MAX_TEXT_ANSWER_LENGTH} characters.`)]
    : [];
}

function formattedString(test: (text: string) => boolean, expected: string): AnswerCheck {
  return (value, { path }) => {
    if (typeof value !== 'string') return [fieldError(path, 'invalid_type', `The answer must be ${expected}.`)];
    return test(value) ? [] : [fieldError(path, 'invalid_format', `The answer must be ${expected}.`)];
  };
}

interface NumberBounds {
  min?: number;
  max?: number;
  /** grid from min (or 0): the value must be min + k·step */
  step?: number;
}

function numberBounds(question: ResolvedQuestion): NumberBounds {
  switch (question.type) {
    case 'NPS':
      return { min: 0, max: 10, step: 1 };
    case 'STAR':
      return { min: 1, max: question.max ?? STAR_DEFAULT_MAX, step: 1 };
    default:
      return { min: question.min, max: question.max, step: question.step };
  }
}

function checkNumber(value: unknown, { question, path }: AnswerContext): FieldError[] {
  if (typeof value !== 'number' || !Number.isFinite(value)) return [fieldError(path, 'invalid_type', 'The answer must be a number.')];
  const { min, max, step } = numberBounds(question);
  const range = `The answer must be between ${min ?? '-∞'} and ${max ?? '∞'}.`;
  if (min !== undefined && value < min) return [fieldError(path, 'too_small', range)];
  if (max !== undefined && value > max) return [fieldError(path, 'too_large', range)];
  if (step !== undefined && !isOnGrid(value - (min ?? 0), step)) {
    return [fieldError(path, 'invalid_value', `The answer must be ${min ?? 0} plus a multiple of ${step}.`)];
  }
  return [];
}

/** Tolerant multiple test: 0.3 is on the 0.1 grid although 0.3 / 0.1 is not exactly 3. */
function isOnGrid(offset: number, step: number): boolean {
  const steps = offset / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9 * Math.max(1, Math.abs(steps));
}

function checkBoolean(value: unknown, { path }: AnswerContext): FieldError[] {
  return typeof value === 'boolean' ? [] : [fieldError(path, 'invalid_type', 'The answer must be a boolean.')];
}

function checkSingleChoice(value: unknown, { question, path }: AnswerContext): FieldError[] {
  if (typeof value !== 'string') return [fieldError(path, 'invalid_type', 'The answer must be an option id.')];
  return unknownOptionErrors([value], question, () => path);
}

function unknownOptionErrors(values: string[], question: ResolvedQuestion, pathOf: (index: number) => string): FieldError[] {
  const ids = new Set((question.options ?? []).map((option) => option.id));
  return values.flatMap((value, index) =>
    ids.has(value) ? [] : [fieldError(pathOf(index), 'unknown_reference', `"${value}" is not an option id of this question.`)],
  );
}

/** Array of distinct option ids (CHECKBOX, RANKING). */
function checkOptionList(value: unknown, { question, path }: AnswerContext): FieldError[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    return [fieldError(path, 'invalid_type', 'The answer must be an array of option ids.')];
  }
  const unknown = unknownOptionErrors(value, question, (index) => childPath(path, index));
  if (unknown.length > 0) return unknown;
  const duplicate = value.findIndex((v, index) => value.indexOf(v) !== index);
  return duplicate === -1 ? [] : [fieldError(childPath(path, duplicate), 'not_unique', 'An option may appear only once.')];
}

/** A ranking orders every option: partial rankings would skew the mean rank of the rest. */
function checkRanking(value: unknown, context: AnswerContext): FieldError[] {
  const errors = checkOptionList(value, context);
  if (errors.length > 0 || !isAnswered(value)) return errors;
  const optionCount = context.question.options?.length ?? 0;
  return (value as string[]).length === optionCount
    ? []
    : [fieldError(context.path, 'too_short', `A ranking must order all ${optionCount} options.`)];
}

/** Object row id → column id; a mandatory matrix of a finalized response needs every row. */
function checkMatrix(value: unknown, { question, path, complete }: AnswerContext): FieldError[] {
  if (!isRecord(value)) return [fieldError(path, 'invalid_type', 'The answer must be an object mapping row ids to column ids.')];
  const rows = question.rows ?? [];
  const columnIds = new Set((question.columns ?? []).map((column) => column.id));
  const rowIds = new Set(rows.map((row) => row.id));
  const cellErrors = Object.entries(value).flatMap(([rowId, columnId]) => {
    const cellPath = childPath(path, rowId);
    if (!rowIds.has(rowId)) return [fieldError(cellPath, 'unknown_field', `"${rowId}" is not a row id of this question.`)];
    if (typeof columnId !== 'string' || !columnIds.has(columnId)) {
      return [fieldError(cellPath, 'unknown_reference', 'The value must be a column id of this question.')];
    }
    return [];
  });
  if (cellErrors.length > 0 || !(complete && question.mandatory)) return cellErrors;
  return rows
    .filter((row) => !Object.hasOwn(value, row.id))
    .map((row) => fieldError(childPath(path, row.id), 'required', `Row "${row.name}" must be answered.`));
}

const MAX_FILES = 20;
const FILE_FIELDS: Record<string, (value: unknown, path: string) => FieldError[]> = {
  fileId: boundedString(200),
  name: boundedString(255),
  size: (value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) return [fieldError(path, 'invalid_type', 'Expected an integer.')];
    return value < 0 ? [fieldError(path, 'too_small', 'Expected a size of at least 0.')] : [];
  },
  mime: boundedString(255),
};

function boundedString(max: number) {
  return (value: unknown, path: string): FieldError[] => {
    if (typeof value !== 'string') return [fieldError(path, 'invalid_type', 'Expected a string.')];
    if (value.length === 0) return [fieldError(path, 'too_short', 'Expected at least 1 character.')];
    return value.length > max ? [fieldError(path, 'too_long', `Expected at most ${max} characters.`)] : [];
  };
}

/**
 * An array of `{ fileId, name, size, mime }` (at most 20), checked by hand rather than with a
 * schema validator so the page script's bundle stays small.
 */
function checkFiles(value: unknown, { path }: AnswerContext): FieldError[] {
  if (!Array.isArray(value)) return [fieldError(path, 'invalid_type', 'The answer must be an array of files.')];
  if (value.length > MAX_FILES) return [fieldError(path, 'too_long', `At most ${MAX_FILES} files.`)];
  return value.flatMap((file, index) => {
    const filePath = childPath(path, index);
    if (!isRecord(file)) return [fieldError(filePath, 'invalid_type', 'Expected an object.')];
    const unknown = Object.keys(file)
      .filter((key) => !Object.hasOwn(FILE_FIELDS, key))
      .map((key) => fieldError(childPath(filePath, key), 'unknown_field', 'Unknown property.'));
    const fields = Object.entries(FILE_FIELDS).flatMap(([key, check]) =>
      Object.hasOwn(file, key) ? check(file[key], childPath(filePath, key)) : [fieldError(childPath(filePath, key), 'required', 'Required property.')],
    );
    return [...unknown, ...fields];
  });
}

const ANSWER_CHECKS: Record<QuestionType, AnswerCheck> = {
  TEXT: checkText,
  PARAGRAPH: checkText,
  DATE: formattedString(isIsoDate, 'a date as YYYY-MM-DD'),
  TIME: formattedString(isTime, 'a time as HH:MM'),
  DATETIME: formattedString(isIsoDateTime, 'an ISO 8601 timestamp with a zone'),
  NUMBER: checkNumber,
  RANGE: checkNumber,
  NPS: checkNumber,
  STAR: checkNumber,
  BOOLEAN: checkBoolean,
  RADIO: checkSingleChoice,
  SELECT: checkSingleChoice,
  CHECKBOX: checkOptionList,
  RANKING: checkRanking,
  MATRIX: checkMatrix,
  FILE: checkFiles,
};

