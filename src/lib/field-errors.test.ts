import { Type, type TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { FIELD_ERROR_CODES, pointerToPath } from './field-errors.js';
import { ajvFieldErrors, schemaErrors } from './schema-errors.js';

const Pair = Type.Array(Type.String(), { minItems: 2 });
const Item = Type.Object({ name: Type.String({ minLength: 1, maxLength: 5 }), qty: Type.Integer({ minimum: 1, maximum: 9 }) }, { additionalProperties: false });
const Input = Type.Object(
  {
    code: Type.String({ pattern: '^[a-z]+$', minLength: 3 }),
    kind: Type.Union([Type.Literal('course'), Type.Literal('unit')]),
    dims: Type.Object({ course: Type.String() }, { additionalProperties: false }),
    items: Type.Array(Item, { minItems: 1, maxItems: 3 }),
    pair: Type.Optional(Pair),
  },
  { additionalProperties: false },
);
const valid = { code: 'abc', kind: 'unit', dims: { course: 'c1' }, items: [{ name: 'a', qty: 1 }] };

/** The same fault through both validators, as `path code` lines. */
function both(schema: TSchema, value: unknown) {
  const validate = new Ajv({ allErrors: true }).compile(JSON.parse(JSON.stringify(schema)));
  validate(value);
  const ajv = ajvFieldErrors((validate.errors ?? []) as ErrorObject[], 'body').map((e) => `${e.path} ${e.code}`);
  const typebox = schemaErrors(schema, value).map((e) => `${e.path} ${e.code}`);
  return { ajv, typebox };
}

describe('field errors: one code per fault from Ajv and TypeBox alike', () => {
  const cases: [string, unknown, string][] = [
    ['a missing property', (({ code: _, ...rest }) => rest)(valid), 'code required'],
    ['an unknown property', { ...valid, extra: 1 }, 'extra unknown_field'],
    ['an unknown nested property', { ...valid, dims: { course: 'c', teacher: 't' } }, 'dims.teacher unknown_field'],
    ['a wrong type', { ...valid, dims: { course: 7 } }, 'dims.course invalid_type'],
    ['an empty required text', { ...valid, items: [{ name: '', qty: 1 }] }, 'items[0].name required'],
    ['a short text', { ...valid, code: 'ab' }, 'code too_short'],
    ['a long text', { ...valid, items: [valid.items[0], valid.items[0], valid.items[0], { name: 'toolong', qty: 1 }] }, 'items too_long'],
    ['a text against its pattern', { ...valid, code: 'ABC' }, 'code invalid_format'],
    ['an empty list', { ...valid, items: [] }, 'items required'],
    ['too few items', { ...valid, pair: ['a'] }, 'pair too_short'],
    ['a small number', { ...valid, items: [valid.items[0], { name: 'b', qty: 0 }] }, 'items[1].qty too_small'],
    ['a large number', { ...valid, items: [valid.items[0], valid.items[0], { name: 'c', qty: 10 }] }, 'items[2].qty too_large'],
    ['a value outside the union', { ...valid, kind: 'teacher' }, 'kind invalid_value'],
  ];

  it.each(cases)('%s', (_, value, expected) => {
    const { ajv, typebox } = both(Input, value);
    expect(typebox).toContain(expected);
    expect(ajv).toContain(expected);
  });

  it('accepts a valid value with no errors from either', () => {
    expect(both(Input, valid)).toEqual({ ajv: [], typebox: [] });
  });

  it('reports a nullable object given as an object by its own errors, not as "must be null or an object"', () => {
    const Nullable = Type.Union([Type.Null(), Type.Object({ note: Type.String({ maxLength: 3 }) }, { additionalProperties: false })]);
    expect(both(Nullable, { note: 'long' })).toEqual({ ajv: ['note too_long'], typebox: ['note too_long'] });
    expect(both(Type.Object({ meta: Nullable }), { meta: { extra: 1 } })).toEqual({ ajv: ['meta.note required', 'meta.extra unknown_field'], typebox: ['meta.note required', 'meta.extra unknown_field'] });
    expect(both(Nullable, 7)).toEqual({ ajv: ['body invalid_type'], typebox: [' invalid_type'] });
    expect(both(Nullable, null)).toEqual({ ajv: [], typebox: [] });
    // A union of more shapes keeps its own error.
    expect(both(Type.Union([Type.Null(), Type.String(), Type.Integer()]), true)).toEqual({ ajv: ['body invalid_value'], typebox: [' invalid_value'] });
  });

  it('reports one error per path with a message naming the field', () => {
    const errors = schemaErrors(Input, { ...valid, code: 'A' });
    expect(errors).toEqual([{ path: 'code', code: 'too_short', message: 'code must be at least 3 characters.' }]);
  });

  it('puts TypeBox paths under a base path', () => {
    expect(schemaErrors(Item, { name: 'x', qty: 'one' }, 'answers.q1[2]')).toEqual([
      { path: 'answers.q1[2].qty', code: 'invalid_type', message: 'qty must be an integer.' },
    ]);
  });

  it('reports an error on the whole input at the root path Ajv is given', () => {
    const validate = new Ajv().compile({ type: 'object' });
    validate('text');
    expect(ajvFieldErrors(validate.errors as ErrorObject[], 'query')).toEqual([{ path: 'query', code: 'invalid_type', message: 'query must be an object.' }]);
  });

  it('uses a custom errorCode and errorMessage of a pattern', () => {
    const Blank = Type.String({ pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' });
    expect(schemaErrors(Type.Object({ name: Blank }), { name: '  ' })).toEqual([{ path: 'name', code: 'required', message: 'name must not be blank' + '.' }]);
  });

  it('says a union fault once, as the union, not as its first branch', () => {
    const { ajv, typebox } = both(Input, { ...valid, kind: 'teacher' });
    expect(ajv).toEqual(['kind invalid_value']);
    expect(typebox).toEqual(['kind invalid_value']);
    expect(schemaErrors(Input, { ...valid, kind: 'teacher' })[0].message).toBe('kind must be one of course, unit.');
  });

  it('turns JSON pointers into dotted paths with indexes, escapes undone', () => {
    expect(pointerToPath('/items/3/name')).toBe('items[3].name');
    expect(pointerToPath('/a~1b/c~0d', 'body')).toBe('body.a/b.c~d');
    expect(pointerToPath('')).toBe('');
  });

  it('only produces codes of the documented vocabulary', () => {
    const produced = cases.flatMap(([, value]) => {
      const { ajv, typebox } = both(Input, value);
      return [...ajv, ...typebox].map((line) => line.split(' ')[1]);
    });
    for (const code of produced) expect(Object.keys(FIELD_ERROR_CODES)).toContain(code);
  });
});
