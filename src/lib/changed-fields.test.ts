import { expect, it } from 'vitest';
import { changedFields } from './changed-fields.js';

it('names each field whose value differs, lists and objects by content, absent as null', () => {
  expect(
    changedFields(
      { name: 'A', quota: 5, list: ['x'], same: { a: 1 }, gone: 'y', none: null },
      { name: 'B', quota: 5, list: ['x', 'z'], same: { a: 1 }, added: 3, none: undefined },
    ),
  ).toEqual({ name: { from: 'A', to: 'B' }, list: { from: ['x'], to: ['x', 'z'] }, gone: { from: 'y', to: null }, added: { from: null, to: 3 } });
  expect(changedFields({ a: 1 }, { a: 1 })).toEqual({});
});
