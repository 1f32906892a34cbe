import { describe, expect, it } from 'vitest';
import { findParentCycles, orderUnitsParentFirst, parseEntityFile, type EntityInput } from './parse-entities.js';

function errorsOf(text: string, format: 'json' | 'csv'): string[] {
  const result = parseEntityFile(text, format);
  return result.ok ? [] : result.errors.map((e) => `${e.path} ${e.code}`);
}

const json = (entities: unknown) => JSON.stringify({ entities });

describe('parseEntityFile: JSON', () => {
  it('reads the wrapped form and the bare array, trimming text and dropping empty parents', () => {
    const entities = [
      { kind: 'unit', code: 'HQ', name: ' Headquarters ' },
      { kind: 'unit', code: 'NORTH', name: 'North', parentCode: 'HQ' },
      { kind: 'unit', code: 'EAST', name: 'East', parentCode: null },
      { kind: 'course', code: 'MATH-101', name: 'Mathematics I' },
      { kind: 'teacher', code: 't:0042', name: 'Ada Lovelace', parentCode: '' },
    ];
    const expected: EntityInput[] = [
      { kind: 'unit', code: 'HQ', name: 'Headquarters' },
      { kind: 'unit', code: 'NORTH', name: 'North', parentCode: 'HQ' },
      { kind: 'unit', code: 'EAST', name: 'East' },
      { kind: 'course', code: 'MATH-101', name: 'Mathematics I' },
      { kind: 'teacher', code: 't:0042', name: 'Ada Lovelace' },
    ];
    expect(parseEntityFile(json(entities), 'json')).toEqual({ ok: true, value: expected });
    expect(parseEntityFile(JSON.stringify(entities), 'json')).toEqual({ ok: true, value: expected });
    expect(parseEntityFile('[]', 'json')).toEqual({ ok: true, value: [] });
  });

  it('accepts a parent that is not in the file (the importer checks it exists)', () => {
    expect(errorsOf(json([{ kind: 'unit', code: 'A', name: 'A', parentCode: 'STORED' }]), 'json')).toEqual([]);
  });

  it('rejects bad JSON and bad shapes', () => {
    expect(errorsOf('{"entities": [', 'json')).toEqual([' invalid_format']);
    expect(errorsOf('"units"', 'json')).toEqual([' invalid_type']);
    expect(errorsOf('{}', 'json')).toEqual(['entities required']);
    expect(errorsOf('{"entities": {}, "units": []}', 'json')).toEqual(['entities invalid_type', 'units unknown_field']);
    expect(errorsOf(json([{ kind: 'unit', code: 'A', name: 'A' }, 'B']), 'json')).toEqual(['entities[1] invalid_type']);
    expect(errorsOf(json([{ kind: 'unit', code: 'A', name: 'A', parent: 'B' }]), 'json')).toEqual(['entities[0].parent unknown_field']);
  });

  it('validates every field of every entity', () => {
    const errors = errorsOf(
      json([
        { code: 'A', name: 'A' },
        { kind: 'room', code: 'B', name: 'B' },
        { kind: 'course', name: 'C' },
        { kind: 'course', code: '-C', name: 'C' },
        { kind: 'course', code: 'has space', name: 'C' },
        { kind: 'course', code: 'x'.repeat(65), name: 'C' },
        { kind: 'course', code: 12, name: 'C' },
        { kind: 'course', code: 'D', name: '  ' },
        { kind: 'course', code: 'E', name: 'é'.repeat(201) },
        { kind: 'course', code: 'F', name: 7 },
        { kind: 'unit', code: 'G', name: 'G', parentCode: 'bad code' },
        { kind: 'course', code: 'H', name: 'H', parentCode: 'G' },
        { kind: 'teacher', code: 'I', name: 'I', parentCode: 'G' },
      ]),
      'json',
    );
    expect(errors).toEqual([
      'entities[0].kind required',
      'entities[1].kind invalid_value',
      'entities[2].code required',
      'entities[3].code invalid_format',
      'entities[4].code invalid_format',
      'entities[5].code invalid_format',
      'entities[6].code invalid_type',
      'entities[7].name required',
      'entities[8].name too_long',
      'entities[9].name invalid_type',
      'entities[10].parentCode invalid_format',
      'entities[11].parentCode not_applicable',
      'entities[12].parentCode not_applicable',
    ]);
  });

  it('accepts names of exactly 200 characters and codes of 64', () => {
    expect(errorsOf(json([{ kind: 'course', code: 'x'.repeat(64), name: 'é'.repeat(200) }]), 'json')).toEqual([]);
  });

  it('rejects a duplicate code within a kind but not across kinds', () => {
    const errors = errorsOf(
      json([
        { kind: 'course', code: 'A', name: 'A' },
        { kind: 'teacher', code: 'A', name: 'A' },
        { kind: 'unit', code: 'A', name: 'A' },
        { kind: 'course', code: 'A', name: 'A again' },
      ]),
      'json',
    );
    expect(errors).toEqual(['entities[3].code not_unique']);
  });

  it('detects cycles, self-parents included, and marks every unit in them', () => {
    const result = parseEntityFile(
      json([
        { kind: 'unit', code: 'ROOT', name: 'Root' },
        { kind: 'unit', code: 'A', name: 'A', parentCode: 'C' },
        { kind: 'unit', code: 'B', name: 'B', parentCode: 'A' },
        { kind: 'unit', code: 'C', name: 'C', parentCode: 'B' },
        { kind: 'unit', code: 'D', name: 'D', parentCode: 'A' },
        { kind: 'unit', code: 'SELF', name: 'Self', parentCode: 'SELF' },
        { kind: 'course', code: 'ROOT', name: 'A course with a unit code' },
      ]),
      'json',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => `${e.path} ${e.code}`)).toEqual([
      'entities[1].parentCode invalid_reference',
      'entities[2].parentCode invalid_reference',
      'entities[3].parentCode invalid_reference',
      'entities[5].parentCode invalid_reference',
    ]);
    expect(result.errors[0].message).toBe('Unit "A" is its own ancestor: A → C → B → A.');
  });
});

describe('parseEntityFile: CSV', () => {
  it('reads rows with the header in any order and case, BOM and CRLF included', () => {
    const text = '\uFEFFCode,Kind,Name,ParentCode\r\nHQ,unit,Headquarters,\r\n\r\nN1,unit," North, main ",HQ\r\nMATH,course,Math\r\n';
    expect(parseEntityFile(text, 'csv')).toEqual({
      ok: true,
      value: [
        { kind: 'unit', code: 'HQ', name: 'Headquarters' },
        { kind: 'unit', code: 'N1', name: 'North, main', parentCode: 'HQ' },
        { kind: 'course', code: 'MATH', name: 'Math' },
      ],
    });
  });

  it('works without the optional parentCode column', () => {
    expect(parseEntityFile('kind,code,name\nteacher,T1,Ada\n', 'csv')).toEqual({
      ok: true,
      value: [{ kind: 'teacher', code: 'T1', name: 'Ada' }],
    });
  });

  it('reports row errors by data row number and file line', () => {
    const text = 'kind,code,name,parentCode\n\ncourse,C1,Math\ncourse,,Physics\nroom,R1,Room\ncourse,C1,Math again\n';
    const result = parseEntityFile(text, 'csv');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => `${e.path} ${e.code}`)).toEqual([
      'rows[2].code required',
      'rows[3].kind invalid_value',
      'rows[4].code not_unique',
    ]);
    expect(result.errors[0].message).toBe('code is required (line 4).');
  });

  it('detects cycles', () => {
    expect(errorsOf('kind,code,name,parentCode\nunit,A,A,B\nunit,B,B,A\n', 'csv')).toEqual([
      'rows[1].parentCode invalid_reference',
      'rows[2].parentCode invalid_reference',
    ]);
  });

  it('rejects bad headers', () => {
    expect(errorsOf('', 'csv')).toEqual(['header required']);
    expect(errorsOf('kind,code,title\ncourse,C,Math\n', 'csv')).toEqual(['header[2] unknown_field', 'header required']);
    expect(errorsOf('kind,code,name,code\n', 'csv')).toEqual(['header[3] not_unique']);
  });

  it('rejects rows with extra cells and unreadable CSV', () => {
    expect(errorsOf('kind,code,name\ncourse,C,Math,oops\ncourse,D,Art,,\n', 'csv')).toEqual(['rows[1] too_long']);
    expect(errorsOf('kind,code,name\ncourse,"C,Math\n', 'csv')).toEqual([' invalid_format']);
  });
});

describe('unit tree helpers', () => {
  const unit = (code: string, parentCode?: string) => ({ code, parentCode });

  it('orders parents before children, keeping file order otherwise', () => {
    const units = [unit('C', 'B'), unit('X'), unit('B', 'A'), unit('A', 'STORED'), unit('D', 'A'), unit('Y', null as unknown as string)];
    expect(orderUnitsParentFirst(units).map((u) => u.code)).toEqual(['A', 'B', 'C', 'X', 'D', 'Y']);
  });

  it('returns each unit once and keeps objects', () => {
    const units = [unit('B', 'A'), unit('A'), unit('C', 'A')];
    const ordered = orderUnitsParentFirst(units);
    expect(ordered).toHaveLength(3);
    expect(ordered[0]).toBe(units[1]);
  });

  it('handles deep chains without recursion', () => {
    const units = Array.from({ length: 20_000 }, (_, i) => unit(`U${i}`, i === 0 ? undefined : `U${i - 1}`)).reverse();
    const ordered = orderUnitsParentFirst(units);
    expect(ordered[0].code).toBe('U0');
    expect(ordered.at(-1)!.code).toBe('U19999');
  });

  it('finds cycles and refuses to order them', () => {
    const units = [unit('A', 'B'), unit('B', 'A'), unit('C', 'A')];
    expect(findParentCycles(units).map((cycle) => cycle.map((u) => u.code))).toEqual([['A', 'B']]);
    expect(() => orderUnitsParentFirst(units)).toThrow(/cycle: A → B/);
  });
});
