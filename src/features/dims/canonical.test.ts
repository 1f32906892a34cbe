import { describe, expect, it } from 'vitest';
import { canonicalScalarDim, decimalText, isIsoDate, isIsoDateTime, parseIsoDateTime } from './canonical.js';

const ok = (value: string) => ({ ok: true, value });

describe('canonicalScalarDim: number', () => {
  it.each([
    [42, '42'],
    [1.5, '1.5'],
    ['1.50', '1.5'],
    ['  007 ', '7'],
    ['+3', '3'],
    ['.5', '0.5'],
    ['5.', '5'],
    [-0, '0'],
    ['-0', '0'],
    ['-0.0', '0'],
    [-2.25, '-2.25'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e21, '1000000000000000000000'],
    ['1e21', '1000000000000000000000'],
    [1.5e22, '15000000000000000000000'],
    [-1.234e25, '-12340000000000000000000000'],
    [1e-7, '0.0000001'],
    ['2.5E-8', '0.000000025'],
    [-1.5e-10, '-0.00000000015'],
    [123456789012, '123456789012'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ])('%j → %s', (raw, expected) => {
    expect(canonicalScalarDim('number', raw)).toEqual(ok(expected));
  });

  it('never uses exponent notation, even at the ends of the double range', () => {
    for (const value of [Number.MAX_VALUE, Number.MIN_VALUE, 5e-324, 1.7e308]) {
      const result = canonicalScalarDim('number', value);
      expect(result.ok && /^-?\d+(\.\d+)?$/.test(result.value)).toBe(true);
      expect(result.ok && Number(result.value)).toBe(value);
    }
  });

  it.each([NaN, Infinity, -Infinity, '1e400', 'NaN', 'Infinity'])('rejects %j as not finite', (raw) => {
    expect(canonicalScalarDim('number', raw)).toMatchObject({ ok: false, code: 'invalid_format' });
  });

  it.each(['', ' ', 'abc', '1,5', '0x10', '1 000', '1e', '--1', '.'])('rejects the text %j', (raw) => {
    expect(canonicalScalarDim('number', raw)).toMatchObject({ ok: false, code: 'invalid_format' });
  });

  it.each([true, null, undefined, {}, [1]])('rejects the non-number %j', (raw) => {
    expect(canonicalScalarDim('number', raw)).toMatchObject({ ok: false, code: 'invalid_type' });
  });

  it('decimalText round-trips', () => {
    for (const value of [0, 1, -1, 0.1, 123.456, 1e-6, 1e20, 2 ** 70, -(2 ** -30)]) {
      expect(Number(decimalText(value))).toBe(value);
    }
  });
});

describe('canonicalScalarDim: date', () => {
  it.each([
    ['2024-02-29', '2024-02-29'],
    [' 2023-12-31 ', '2023-12-31'],
    ['2024-03-01T12:00:00.000Z', '2024-03-01'],
    ['2024-03-01T12:00Z', '2024-03-01'],
    ['2024-03-01T23:30:00-03:00', '2024-03-02'],
    ['2024-03-01T01:00:00+02:00', '2024-02-29'],
    ['0099-01-01', '0099-01-01'],
    ['0099-06-01T00:00:00Z', '0099-06-01'],
  ])('%s → %s', (raw, expected) => {
    expect(canonicalScalarDim('date', raw)).toEqual(ok(expected));
  });

  it.each([
    '2023-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '1900-02-29',
    '24-01-01',
    '2024-1-1',
    '01/02/2024',
    '2024-03-01T12:00:00',
    '2024-03-01T24:00:00Z',
    '2024-03-01T12:60Z',
    '2024-03-01T12:00+24:00',
    '0000-01-01T00:00:00+01:00',
    '',
  ])('rejects %j', (raw) => {
    expect(canonicalScalarDim('date', raw)).toMatchObject({ ok: false, code: 'invalid_format' });
  });

  it('rejects non-strings', () => {
    expect(canonicalScalarDim('date', 20240101)).toMatchObject({ ok: false, code: 'invalid_type' });
  });

  it('accepts 2000-02-29 (divisible by 400) and the timestamp helpers agree', () => {
    expect(isIsoDate('2000-02-29')).toBe(true);
    expect(isIsoDateTime('2024-01-01T00:00:00.123456789+05:30')).toBe(true);
    expect(parseIsoDateTime('2024-01-01T05:30:00.5+05:30')).toBe(Date.parse('2024-01-01T00:00:00.500Z'));
  });
});

describe('canonicalScalarDim: text', () => {
  it('trims', () => {
    expect(canonicalScalarDim('text', '  Evening shift \n')).toEqual(ok('Evening shift'));
  });

  it('counts characters, not UTF-16 units', () => {
    expect(canonicalScalarDim('text', '😀'.repeat(200))).toEqual(ok('😀'.repeat(200)));
    expect(canonicalScalarDim('text', 'a'.repeat(201))).toMatchObject({ ok: false, code: 'too_long' });
  });

  it('rejects empty text and non-strings', () => {
    expect(canonicalScalarDim('text', '   ')).toMatchObject({ ok: false, code: 'required' });
    expect(canonicalScalarDim('text', 42)).toMatchObject({ ok: false, code: 'invalid_type' });
    expect(canonicalScalarDim('text', null)).toMatchObject({ ok: false, code: 'invalid_type' });
  });
});
