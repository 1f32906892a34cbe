import { isIP } from 'node:net';
import type { FieldError } from '../../lib/errors.js';
import { fieldError, type FieldErrorCode } from '../../lib/field-errors.js';
import { isForbiddenAddress, validateTargetUrl, type TargetUrlCode } from './target-guard.js';

/** The target guard's reasons in the field-error vocabulary (its message keeps the detail). */
const URL_CODES: Record<TargetUrlCode, FieldErrorCode> = {
  too_long: 'too_long',
  invalid_url: 'invalid_format',
  unsupported_scheme: 'invalid_value',
  credentials_not_allowed: 'invalid_value',
  missing_host: 'invalid_value',
};

/**
 * The field errors of an outbound URL a company saves. An IP-literal host is known now, not only
 * at connect time: one in a forbidden range is refused when saved instead of failing every send
 * later. Names are still checked when connecting.
 */
export function targetUrlErrors(path: string, raw: string, allowPrivate: boolean): FieldError[] {
  const checked = validateTargetUrl(raw);
  if (!checked.ok) return [fieldError(path, URL_CODES[checked.code], checked.message)];
  const host = checked.url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (allowPrivate || isIP(host) === 0 || !isForbiddenAddress(host)) return [];
  return [fieldError(path, 'forbidden_target', `${host} is a private, loopback or reserved address; outbound requests go to public addresses only.`)];
}
