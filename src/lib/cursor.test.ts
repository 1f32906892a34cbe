import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';

const secret = 'a-secret-of-sufficient-length-000000';
const binding = { companyId: 'c1', scope: { route: 'responses', formId: 'f1', dims: { b: '2', a: '1' } } };
type Pos = { t: string; id: string };
const isPos = (p: unknown): p is Pos => typeof p === 'object' && p !== null && typeof (p as Pos).t === 'string' && typeof (p as Pos).id === 'string';

describe('cursor', () => {
  const cursor = encodeCursor(secret, binding, { t: '2026-01-01T00:00:00.000Z', id: 'x' });

  it('round-trips a position and ignores the order of filter keys', () => {
    const reordered = { ...binding, scope: { dims: { a: '1', b: '2' }, formId: 'f1', route: 'responses' } };
    expect(decodeCursor(secret, reordered, cursor, isPos)).toEqual({ t: '2026-01-01T00:00:00.000Z', id: 'x' });
  });

  it('refuses a cursor with any single character changed', () => {
    for (let i = 0; i < cursor.length; i++) {
      const flipped = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
      if (flipped === cursor) continue;
      expect(() => decodeCursor(secret, binding, flipped, isPos), `position ${i}`).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    }
  });

  it('refuses a tag spelled with other unused bits in its last character', () => {
    const [body, tag] = cursor.split('.');
    const last = tag.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 16 bytes fill 21 characters and the top 2 bits of the 22nd; its low 4 bits are not data.
    const sibling = alphabet[(alphabet.indexOf(last) & 0b110000) | (~alphabet.indexOf(last) & 0b1111)];
    expect(Buffer.from(tag.slice(0, -1) + sibling, 'base64url')).toEqual(Buffer.from(tag, 'base64url'));
    expect(() => decodeCursor(secret, binding, `${body}.${tag.slice(0, -1)}${sibling}`, isPos)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it("refuses another company's cursor, other filters, another secret and garbage", () => {
    const bad = [
      () => decodeCursor(secret, { ...binding, companyId: 'c2' }, cursor, isPos),
      () => decodeCursor(secret, { ...binding, scope: { ...binding.scope, formId: 'f2' } }, cursor, isPos),
      () => decodeCursor('another-secret-of-sufficient-length', binding, cursor, isPos),
      () => decodeCursor(secret, binding, 'garbage', isPos),
      () => decodeCursor(secret, binding, '', isPos),
      () => decodeCursor(secret, binding, `${cursor}.x`, isPos),
    ];
    for (const attempt of bad) expect(attempt).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('refuses a validly signed cursor whose position has the wrong shape', () => {
    const odd = encodeCursor(secret, binding, { t: 1 });
    expect(() => decodeCursor(secret, binding, odd, isPos)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });
});
