/**
 * The one vocabulary of field errors (VALIDATION_ERROR `details.fields[]`): hand-written checks
 * pick from it, and schema-errors.ts maps Ajv's and TypeBox's faults onto it. No validator here:
 * modules every command loads (the outbound target check) use it without loading a schema checker.
 * Browser-safe (no Node imports): the respondent page shows these codes too.
 *
 * Paths are dotted with bracketed indexes: `dims.course`, `items[3].name`, `answers.<id>[0]`.
 */
import type { FieldError } from './errors.js';

/** Every code a field error may carry, with its one meaning. */
export const FIELD_ERROR_CODES = {
  required: 'missing, null, empty or blank where a value is needed',
  unknown_field: 'a property or key that does not exist in this place',
  forbidden_target: 'an address the service refuses to call (private, loopback, link-local or metadata ranges)',
  not_applicable: 'a known property or answer that does not apply here (question type, dim source, hidden question)',
  invalid_type: 'the wrong JSON type',
  invalid_format: 'the right type but not the expected spelling (pattern, date, time, URL, id, JSON or CSV syntax)',
  invalid_value: 'well-formed but not an accepted value (not one of the choices, off the step grid, a contradiction)',
  too_short: 'fewer characters or items than the minimum',
  too_long: 'more characters or items than the maximum',
  too_small: 'a number below the minimum',
  too_large: 'a number above the maximum',
  not_unique: 'repeats a key, id, code or value that must be unique',
  unknown_reference: 'names a question, option, row, column, scope, event type, dim or id that does not exist',
  unknown_entity: 'names a registered course, teacher or unit that does not exist',
  invalid_reference: 'names something that exists but cannot be used here (a later question, a wrong question type, its own ancestor)',
  limit_reached: 'refused by a limit on how much may be sent (files per hour, a storage quota), not by the value itself',
} as const;

export type FieldErrorCode = keyof typeof FIELD_ERROR_CODES;

export function fieldError(path: string, code: FieldErrorCode, message: string): FieldError {
  return { path, code, message };
}

/** `base` plus one segment: a property (`a.b`) or an index (`a[0]`). */
export function childPath(base: string, segment: string | number): string {
  if (typeof segment === 'number') return `${base}[${segment}]`;
  return base === '' ? segment : `${base}.${segment}`;
}

/** A JSON pointer (`/items/3/name`) as a field path (`items[3].name`) under `base`. */
export function pointerToPath(pointer: string, base = ''): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>((path, segment) => childPath(path, /^\d+$/.test(segment) ? Number(segment) : segment), base);
}
