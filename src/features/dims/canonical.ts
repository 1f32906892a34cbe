import type { FieldErrorCode } from '../../lib/field-errors.js';
/**
 * Canonical stored form of scalar dim values (contract: "a number as its decimal text, a date
 * as YYYY-MM-DD"). Dims are filtered by plain string comparison (`dim.<key>=<value>`), so every
 * spelling of one value must map to exactly one string. Entity kinds (course, teacher, unit)
 * resolve to ids against the database and are not handled here.
 */

export type ScalarDimKind = 'text' | 'number' | 'date';

export type CanonicalResult = { ok: true; value: string } | { ok: false; code: FieldErrorCode; message: string };

export const MAX_TEXT_DIM_LENGTH = 200;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Full timestamp: date, time to the minute (seconds and fraction optional) and a mandatory zone. */
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;
/** Decimal number as people and spreadsheets write it; no hex, no `Infinity`, no blanks inside. */
const NUMERIC_TEXT_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function canonicalScalarDim(kind: ScalarDimKind, raw: unknown): CanonicalResult {
  switch (kind) {
    case 'number':
      return canonicalNumber(raw);
    case 'date':
      return canonicalDate(raw);
    case 'text':
      return canonicalText(raw);
  }
}

function fail(code: FieldErrorCode, message: string): CanonicalResult {
  return { ok: false, code, message };
}

function canonicalText(raw: unknown): CanonicalResult {
  if (typeof raw !== 'string') return fail('invalid_type', 'A text value must be a string.');
  const value = raw.trim();
  const length = [...value].length;
  if (length === 0) return fail('required', 'A text value must not be empty.');
  if (length > MAX_TEXT_DIM_LENGTH) {
    return fail('too_long', `A text value must be at most ${MAX_TEXT_DIM_LENGTH} characters.`);
  }
  return { ok: true, value };
}

function canonicalNumber(raw: unknown): CanonicalResult {
  if (typeof raw !== 'number' && typeof raw !== 'string') {
    return fail('invalid_type', 'A number value must be a number or a numeric string.');
  }
  const number = typeof raw === 'number' ? raw : parseNumericText(raw.trim());
  if (number === null) return fail('invalid_format', 'A number value must be written as a decimal number.');
  if (!Number.isFinite(number)) return fail('invalid_format', 'A number value must be finite.');
  return { ok: true, value: decimalText(number) };
}

function parseNumericText(text: string): number | null {
  return NUMERIC_TEXT_RE.test(text) ? Number(text) : null;
}

/**
 * Shortest decimal text that reads back as the same double, never in exponent notation
 * (`1e21` → `1000000000000000000000`, `1e-7` → `0.0000001`) and with `-0` as `0`.
 */
export function decimalText(value: number): string {
  if (Object.is(value, -0)) return '0';
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, fraction = '', exponentText] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exponentText); // position of the decimal point within digits
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A date dim is the calendar date `YYYY-MM-DD`. A full timestamp is accepted and reduced to
 * its UTC date, because every date of the contract (period filters included) is in UTC.
 */
function canonicalDate(raw: unknown): CanonicalResult {
  if (typeof raw !== 'string') return fail('invalid_type', 'A date value must be a string.');
  const text = raw.trim();
  if (isIsoDate(text)) return { ok: true, value: text };
  const instant = parseIsoDateTime(text);
  if (instant === null) {
    return fail('invalid_format', 'A date value must be a real date as YYYY-MM-DD or an ISO 8601 timestamp with a zone.');
  }
  const utcDate = new Date(instant).toISOString().slice(0, 10);
  if (!isIsoDate(utcDate)) return fail('invalid_format', 'The date is out of the supported range of years 0000 to 9999.');
  return { ok: true, value: utcDate };
}

/** `YYYY-MM-DD` naming a day that exists (no 2023-02-29, no month 13). */
export function isIsoDate(text: string): boolean {
  const match = DATE_RE.exec(text);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** ISO 8601 timestamp with a zone (`Z` or `±HH:MM`) naming a real instant. */
export function isIsoDateTime(text: string): boolean {
  return parseIsoDateTime(text) !== null;
}

/** Epoch milliseconds of an ISO 8601 timestamp with a zone, or null when it is not one. */
export function parseIsoDateTime(text: string): number | null {
  const match = DATE_TIME_RE.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', zone] = match;
  if (!isCalendarDay(Number(year), Number(month), Number(day))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  const offsetMinutes = zoneOffsetMinutes(zone);
  if (offsetMinutes === null) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map the years 0..99 to 1900..1999.
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0').slice(0, 3)));
  return date.getTime() - offsetMinutes * 60_000;
}

function zoneOffsetMinutes(zone: string): number | null {
  if (zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return null;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
