import type { FieldErrorCode } from '../../lib/field-errors.js';
import { parseDay } from '../../lib/date-time.js';
/**
 * Row checks of a roster payload that need nothing stored: shapes, lengths, formats, statuses and
 * duplicates within the payload. A bad row is reported (`{ index, path, code, message }`) and
 * skipped; the rest goes on. Whether a code names something stored is for importRoster.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { ENROLLMENT_STATUSES, type EnrollmentStatus } from './table.js';

export interface RowError {
  index: number;
  path: string;
  code: FieldErrorCode;
  message: string;
}

/** An omitted optional field keeps the stored value; null clears it. */
export interface PersonInput {
  index: number;
  externalId: string;
  name: string;
  email?: string | null;
  phone?: string | null;
}

export interface ClassGroupInput {
  index: number;
  code: string;
  name: string;
  startsOn?: string | null;
  endsOn?: string | null;
}

export interface ClassInput {
  index: number;
  code: string;
  name: string;
  classGroupCode?: string | null;
  /** Required for a class not stored yet (its events carry courseItemId and orgUnitId). */
  courseCode?: string;
  orgUnitCode?: string;
  teacherCodes?: string[];
}

export interface EnrollmentInput {
  index: number;
  externalId: string;
  classCode: string;
  status: EnrollmentStatus;
}

export interface RosterPayload {
  people?: unknown[];
  classGroups?: unknown[];
  classes?: unknown[];
  enrollments: unknown[];
}

export interface ParsedRoster {
  people: PersonInput[];
  classGroups: ClassGroupInput[];
  classes: ClassInput[];
  enrollments: EnrollmentInput[];
  /**
   * Every (externalId, classCode) an enrollment row names, valid or not: sync never drops an
   * enrollment the payload mentions, so a malformed row cannot cause a drop.
   */
  mentioned: Array<[string, string]>;
  errors: RowError[];
}

export const MAX_CODE_LENGTH = 64;
export const MAX_EXTERNAL_ID_LENGTH = 200;
export const MAX_NAME_LENGTH = 200;
const MAX_EMAIL_LENGTH = 320;
const MAX_TEACHERS = 50;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

class RowFailure extends Error {
  constructor(
    readonly field: string,
    readonly code: FieldErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const fail = (field: string, code: FieldErrorCode, message: string): never => {
  throw new RowFailure(field, code, message);
};

function text(row: Record<string, unknown>, field: string, max: number): string {
  const value = row[field];
  if (value === undefined || value === null) return fail(field, 'required', `${field} is required.`);
  if (typeof value !== 'string') return fail(field, 'invalid_type', `${field} must be a string.`);
  const trimmed = value.trim();
  if (trimmed === '') return fail(field, 'required', `${field} must not be blank.`);
  if (trimmed.length > max) return fail(field, 'too_long', `${field} must be at most ${max} characters.`);
  if (trimmed.includes('\u0000')) return fail(field, 'invalid_value', `${field} must not contain NUL.`);
  return trimmed;
}

/** undefined when omitted, null when null or blank, else the checked text. */
function optionalText(row: Record<string, unknown>, field: string, max: number): string | null | undefined {
  const value = row[field];
  if (value === undefined) return undefined;
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  return text(row, field, max);
}

function optionalDay(row: Record<string, unknown>, field: string): string | null | undefined {
  const value = optionalText(row, field, 10);
  if (value === null || value === undefined) return value;
  if (parseDay(value) === null) {
    fail(field, 'invalid_format', `${field} must be a date YYYY-MM-DD.`);
  }
  return value;
}

function parsePerson(row: Record<string, unknown>, index: number, defaultCountry: CountryCode): PersonInput {
  const person: PersonInput = { index, externalId: text(row, 'externalId', MAX_EXTERNAL_ID_LENGTH), name: text(row, 'name', MAX_NAME_LENGTH) };
  const email = optionalText(row, 'email', MAX_EMAIL_LENGTH);
  if (email && !EMAIL.test(email)) fail('email', 'invalid_format', 'email is not an e-mail address.');
  if (email !== undefined) person.email = email?.toLowerCase() ?? null;
  const phone = optionalText(row, 'phone', 40);
  if (phone) {
    const parsed = parsePhoneNumberFromString(phone, defaultCountry);
    if (!parsed?.isValid()) fail('phone', 'invalid_format', 'phone is not a valid phone number.');
    person.phone = parsed!.number;
  } else if (phone === null) person.phone = null;
  return person;
}

function parseClassGroup(row: Record<string, unknown>, index: number): ClassGroupInput {
  const group: ClassGroupInput = { index, code: text(row, 'code', MAX_CODE_LENGTH), name: text(row, 'name', MAX_NAME_LENGTH) };
  const startsOn = optionalDay(row, 'startsOn');
  const endsOn = optionalDay(row, 'endsOn');
  if (startsOn && endsOn && startsOn > endsOn) fail('endsOn', 'invalid_value', 'endsOn must not be before startsOn.');
  if (startsOn !== undefined) group.startsOn = startsOn;
  if (endsOn !== undefined) group.endsOn = endsOn;
  return group;
}

function parseClass(row: Record<string, unknown>, index: number): ClassInput {
  const cls: ClassInput = { index, code: text(row, 'code', MAX_CODE_LENGTH), name: text(row, 'name', MAX_NAME_LENGTH) };
  const classGroupCode = optionalText(row, 'classGroupCode', MAX_CODE_LENGTH);
  if (classGroupCode !== undefined) cls.classGroupCode = classGroupCode;
  for (const field of ['courseCode', 'orgUnitCode'] as const) {
    const code = optionalText(row, field, MAX_CODE_LENGTH);
    if (code === null) fail(field, 'required', `${field} cannot be removed from a class.`);
    if (code !== undefined) cls[field] = code!;
  }
  const teachers = row.teacherCodes;
  if (teachers !== undefined && teachers !== null) {
    if (!Array.isArray(teachers) || teachers.length > MAX_TEACHERS) fail('teacherCodes', 'invalid_value', `teacherCodes must be a list of at most ${MAX_TEACHERS} codes.`);
    cls.teacherCodes = [...new Set((teachers as unknown[]).map((code, i) => text({ [`teacherCodes[${i}]`]: code }, `teacherCodes[${i}]`, MAX_CODE_LENGTH)))];
  } else if (teachers === null) cls.teacherCodes = [];
  return cls;
}

function parseEnrollment(row: Record<string, unknown>, index: number): EnrollmentInput {
  const externalId = text(row, 'externalId', MAX_EXTERNAL_ID_LENGTH);
  const classCode = text(row, 'classCode', MAX_CODE_LENGTH);
  const status = row.status;
  if (!ENROLLMENT_STATUSES.includes(status as EnrollmentStatus)) {
    fail('status', 'invalid_value', `status must be one of ${ENROLLMENT_STATUSES.join(', ')}.`);
  }
  return { index, externalId, classCode, status: status as EnrollmentStatus };
}

/**
 * Parses each row of one list; a failing row becomes an error naming its index and field. A row
 * whose key was already seen in the list is a duplicate: the first one counts, later ones are
 * reported and skipped.
 */
function parseList<T>(list: string, rows: unknown[] | undefined, parse: (row: Record<string, unknown>, index: number) => T, key: (value: T) => string, errors: RowError[]): T[] {
  const parsed: T[] = [];
  const seen = new Set<string>();
  for (const [index, row] of (rows ?? []).entries()) {
    try {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) fail('', 'invalid_type', 'A row must be an object.');
      const value = parse(row as Record<string, unknown>, index);
      const rowKey = key(value);
      if (seen.has(rowKey)) fail('', 'not_unique', `This row repeats an earlier row of ${list} with the same key; only the first is applied.`);
      seen.add(rowKey);
      parsed.push(value);
    } catch (err) {
      if (!(err instanceof RowFailure)) throw err;
      errors.push({ index, path: `${list}[${index}]${err.field ? `.${err.field}` : ''}`, code: err.code, message: err.message });
    }
  }
  return parsed;
}

function mentionedPairs(rows: unknown[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const row of rows) {
    const { externalId, classCode } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    if (typeof externalId === 'string' && typeof classCode === 'string') pairs.push([externalId.trim(), classCode.trim()]);
  }
  return pairs;
}

export function parseRoster(payload: RosterPayload, options: { defaultCountry: CountryCode }): ParsedRoster {
  const errors: RowError[] = [];
  const classGroups = parseList('classGroups', payload.classGroups, parseClassGroup, (g) => g.code, errors);
  const classes = parseList('classes', payload.classes, parseClass, (c) => c.code, errors);
  const people = parseList('people', payload.people, (row, index) => parsePerson(row, index, options.defaultCountry), (p) => p.externalId, errors);
  const enrollments = parseList('enrollments', payload.enrollments, parseEnrollment, (e) => JSON.stringify([e.externalId, e.classCode]), errors);
  return { people, classGroups, classes, enrollments, mentioned: mentionedPairs(payload.enrollments), errors };
}
