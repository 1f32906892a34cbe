import { describe, expect, it } from 'vitest';
import { dayAfter, nextMonthStart, parseDay, parseInstant } from './date-time.js';

const iso = (text: string) => parseInstant(text)?.toISOString() ?? null;

describe('parseDay', () => {
  it('takes real calendar days from 0001-01-01 to 9999-12-31', () => {
    for (const day of ['0001-01-01', '2024-02-29', '9999-12-31', '0099-03-01']) expect(parseDay(day)).toBe(day);
  });

  it('refuses other spellings and days that do not exist', () => {
    for (const text of ['0000-01-01', '2026-02-29', '2026-13-01', '2026-04-31', '2026-1-01', '+10000-01-01', '2026-03-01T00:00:00Z', ' 2026-03-01', '', 'yesterday']) {
      expect(parseDay(text), text).toBeNull();
    }
  });
});

describe('parseInstant', () => {
  it('reads RFC 3339 date-times with Z or an offset, fractions cut to milliseconds', () => {
    expect(iso('2026-03-01T12:00:00Z')).toBe('2026-03-01T12:00:00.000Z');
    expect(iso('2026-03-01t12:00:00.123456z')).toBe('2026-03-01T12:00:00.123Z');
    expect(iso('2026-03-01T12:00:00+05:30')).toBe('2026-03-01T06:30:00.000Z');
    expect(iso('2026-03-01T00:00:00-03:00')).toBe('2026-03-01T03:00:00.000Z');
    expect(iso('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
  });

  it('reads a leap second at 23:59:60 UTC (any offset) as the next second; refuses :60 anywhere else', () => {
    expect(iso('2016-12-31T23:59:60Z')).toBe('2017-01-01T00:00:00.000Z');
    expect(iso('2026-06-30T23:59:60.5Z')).toBe('2026-07-01T00:00:00.500Z');
    expect(iso('2017-01-01T01:59:60+02:00')).toBe('2017-01-01T00:00:00.000Z');
    expect(iso('2016-12-31T20:59:60-03:00')).toBe('2017-01-01T00:00:00.000Z');
    for (const text of ['2026-06-30T12:00:60Z', '2026-06-30T23:59:60+02:00', '2026-06-30T23:58:60Z', '2026-06-30T23:59:61Z']) expect(iso(text), text).toBeNull();
  });

  it('refuses instants outside the years 0001 to 9999 in UTC, and garbage', () => {
    for (const text of [
      '9999-12-31T23:59:59-01:00', '0001-01-01T00:30:00+01:00', '9999-12-31T23:59:60Z', '+275760-09-13T00:00:00Z', '2026-02-30T00:00:00Z',
      '2026-03-01T24:00:00Z', '2026-03-01T12:60:00Z', '2026-03-01T12:00Z', '2026-03-01T12:00:00', '2026-03-01 12:00:00Z', '2026-03-01T12:00:00+0530',
      '2026-03-01T12:00:00+24:00', '2026-03-01', '1772366400000', 'Sun, 01 Mar 2026 12:00:00 GMT', '', 'now',
    ]) expect(iso(text), text).toBeNull();
  });
});

describe('day arithmetic', () => {
  it('never writes a year past 9999: null instead', () => {
    expect(dayAfter('2024-02-28')).toBe('2024-02-29');
    expect(dayAfter('9999-12-30')).toBe('9999-12-31');
    expect(dayAfter('9999-12-31')).toBeNull();
    expect(nextMonthStart('2026-12-15')).toBe('2027-01-01');
    expect(nextMonthStart('0999-12-01')).toBe('1000-01-01');
    expect(nextMonthStart('9999-11-30')).toBe('9999-12-01');
    expect(nextMonthStart('9999-12-01')).toBeNull();
  });
});
