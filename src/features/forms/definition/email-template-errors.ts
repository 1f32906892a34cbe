/** The form's invitation e-mail: its templates may use only the variables an invite can fill. */
import type { FieldError } from '../../../lib/errors.js';
import { childPath } from '../../../lib/field-errors.js';
import { templateFieldErrors, templateVariables } from '../../../lib/template-variables.js';
import { isRecord } from './tree.js';

const VARIABLES_HINT = 'name, email, phone, externalId, url, formName, company, expiresAt or dims.<key>';

/** The declared dims as far as they can be read: key → source (invite when left out). */
function dimSources(dims: unknown): Map<string, unknown> {
  const records = Array.isArray(dims) ? dims.filter(isRecord) : [];
  return new Map(records.filter((dim) => typeof dim.key === 'string').map((dim) => [dim.key as string, dim.source ?? 'invite']));
}

/** One error per part (field errors are one per path and code), naming every unescaped tag. */
function unescapedError(path: string, tags: string[]): FieldError {
  return { path, code: 'invalid_format', message: `Unescaped tags are not allowed (${tags.join(', ')}): write each variable with two braces, as {{name}}; the e-mail's HTML escapes it.` };
}

/**
 * Unknown variables and Mustache syntax errors of `email.subject` and `email.body` (contract
 * decisions: name, email, phone, externalId, url, formName, expiresAt, dims.<key>; and company), dims.<key>
 * naming a dim the form does not declare, or one an invite does not carry (source other than invite),
 * and unescaped tags: names and dims are the invitee's data and must never reach the HTML part raw.
 */
export function emailTemplateErrors(email: unknown, dims: unknown, block: 'email' | 'reminder' = 'email'): FieldError[] {
  if (!isRecord(email)) return [];
  const sources = dimSources(dims);
  return (['subject', 'body'] as const).flatMap((part) => {
    const text = email[part];
    if (typeof text !== 'string') return [];
    const path = childPath(block, part);
    const vars = templateVariables([text]);
    return [
      ...templateFieldErrors(vars, path).map((error) => (error.code === 'unknown_reference' ? { ...error, message: `${error.message} Use ${VARIABLES_HINT}.` } : error)),
      ...(vars.unescaped.length > 0 ? [unescapedError(path, vars.unescaped)] : []),
      ...vars.dims.flatMap((key): FieldError[] => {
        const source = sources.get(key);
        if (source === undefined) return [{ path, code: 'unknown_reference', message: `{{dims.${key}}}: the form declares no dim "${key}".` }];
        if (source !== 'invite') return [{ path, code: 'invalid_reference', message: `{{dims.${key}}}: the dim comes from the ${String(source)}, not the invite, so an invitation cannot show it.` }];
        return [];
      }),
    ];
  });
}
