import { ApiError, validationError, type FieldError } from '../../lib/errors.js';
import { fieldError, childPath } from '../../lib/field-errors.js';
import type { Answers, ResolvedForm } from '../forms/index.js';
import { questionsOf } from '../forms/index.js';
import { dropHidden, validateAnswers } from '../forms/index.js';

/**
 * Serialised size bound of a response's answers: they travel whole in response.created, whose
 * envelope is limited to 256 KiB (events/emit-event.ts), so a larger set is refused up front.
 */
export const MAX_ANSWERS_BYTES = 200 * 1024;

function isRecord(value: unknown): value is Answers {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shapeErrors(content: ResolvedForm, answers: unknown): FieldError[] {
  if (!isRecord(answers)) return [fieldError('answers', 'invalid_type', 'answers must be an object keyed by question id.')];
  const known = new Set(questionsOf(content).map((question) => question.id));
  return Object.keys(answers)
    .filter((id) => !known.has(id))
    .map((id) => fieldError(childPath('answers', id), 'unknown_field', 'The form has no question with this id.'));
}

/**
 * What the respondent surface stores of the answers a page sent: unknown question ids are refused,
 * answers to questions hidden by the conditions are dropped (never stored), and the rest is
 * validated as recordResponse does; `partial` (a draft) skips the mandatory checks, so a hidden
 * mandatory question is never required and a draft may stop half-way.
 */
export function acceptAnswers(content: ResolvedForm, answers: unknown, options: { partial?: boolean } = {}): Answers {
  const shape = shapeErrors(content, answers);
  if (shape.length > 0) throw validationError(shape, 'The answers are invalid.');
  const bytes = Buffer.byteLength(JSON.stringify(answers));
  if (bytes > MAX_ANSWERS_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `The answers take ${bytes} bytes; at most ${MAX_ANSWERS_BYTES} are accepted.`, { bytes, limit: MAX_ANSWERS_BYTES });
  }
  const shown = dropHidden(content, answers as Answers);
  const errors = validateAnswers(content, shown, options);
  if (errors.length > 0) throw validationError(errors, 'The answers are invalid.');
  return shown;
}
