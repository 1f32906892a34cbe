import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { FieldError } from './errors.js';

// A contact (e-mail, phone) as invites and the suppression list store and compare it: one form for both.

// Deliberately loose (the provider is the judge of deliverability): one @, no spaces or angle
// brackets, a dotted domain. Normalised first so " Ana@School.EDU " and "ana@school.edu" are one contact.
const EMAIL_RE = /^[^\s@<>(),;:"\\[\]]{1,64}@[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)+$/;

export function normaliseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return EMAIL_RE.test(email) && email.length <= 320 ? email : null;
}

/** E.164, reading a number written without + in the company's default country. */
export function normalisePhone(raw: string, defaultCountry: CountryCode): string | null {
  const phone = parsePhoneNumberFromString(raw.trim(), defaultCountry);
  return phone?.isValid() ? phone.number : null;
}

export interface ContactInput {
  email?: string | null;
  phone?: string | null;
}

export type ContactResult = { ok: true; email: string | null; phone: string | null } | { ok: false; errors: FieldError[] };

/** Both contact fields normalised; at least one is required (contract decisions). Empty strings count as absent. */
export function normaliseContact(input: ContactInput, defaultCountry: CountryCode): ContactResult {
  const errors: FieldError[] = [];
  const email = input.email?.trim() ? normaliseEmail(input.email) : null;
  const phone = input.phone?.trim() ? normalisePhone(input.phone, defaultCountry) : null;
  if (input.email?.trim() && !email) errors.push({ path: 'email', code: 'invalid_format', message: 'This is not an e-mail address.' });
  if (input.phone?.trim() && !phone) errors.push({ path: 'phone', code: 'invalid_format', message: `This is not a valid phone number (read in ${defaultCountry} when written without +).` });
  if (!input.email?.trim() && !input.phone?.trim()) errors.push({ path: 'email', code: 'required', message: 'At least one of email and phone is required.' });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, email, phone };
}
