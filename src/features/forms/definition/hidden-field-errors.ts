/** Hidden fields of the public link: names of text dims the link's query sets, so they share the dims' key space and limit. */
import type { FieldError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import { MAX_DIMS } from './schema.js';
import { isRecord } from './tree.js';

/** Query parameters the public link already reads for itself: a hidden field cannot take their name. */
export const RESERVED_QUERY_NAMES = ['name', 'email', 'phone', 'externalId', 'start', 'lang'];

export function hiddenFieldErrors(form: Record<string, unknown>): FieldError[] {
  if (!Array.isArray(form.hiddenFields)) return [];
  const names = form.hiddenFields.filter((name): name is string => typeof name === 'string');
  const dimKeys = new Set((Array.isArray(form.dims) ? form.dims.filter(isRecord) : []).map((dim) => dim.key));
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const path = childPath('hiddenFields', i);
    if (seen.has(name)) errors.push(fieldError(path, 'not_unique', `The hidden field "${name}" is listed twice.`));
    else if (dimKeys.has(name)) errors.push(fieldError(path, 'not_unique', `"${name}" is already a dim key: a hidden field is stored as a dim of its name.`));
    else if (RESERVED_QUERY_NAMES.includes(name)) errors.push(fieldError(path, 'invalid_value', `"${name}" is a query parameter the public link reads for the respondent: choose another name.`));
    seen.add(name);
  });
  if (dimKeys.size + names.length > MAX_DIMS) errors.push(fieldError('hiddenFields', 'too_long', `Dims and hidden fields together may be at most ${MAX_DIMS}.`));
  return errors;
}
