import { describe, expect, it } from 'vitest';
import { idGeneratorFor, isUuid, uuidv7 } from './ids.js';
import { ManualClock } from './clock.js';

describe('uuidv7', () => {
  it('is a version 7, variant 10 UUID carrying its millisecond', () => {
    const id = uuidv7(Date.UTC(2026, 10, 27, 12, 0, 0, 123));
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
    expect('89ab').toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 27, 12, 0, 0, 123));
  });

  it('sorts ids of one millisecond in minting order, and later milliseconds after them', () => {
    const ms = Date.UTC(2026, 10, 27);
    const sameMs = Array.from({ length: 5000 }, () => uuidv7(ms));
    const later = Array.from({ length: 10 }, (_, i) => uuidv7(ms + 1 + i));
    const minted = [...sameMs, ...later];
    expect([...minted].sort()).toEqual(minted);
    expect(new Set(minted).size).toBe(minted.length);
  });

  it("keeps a generator's order on a frozen clock while other ids are minted between its calls", () => {
    const next = idGeneratorFor(new ManualClock(new Date('2026-03-02T09:00:00Z')));
    const minted = Array.from({ length: 50 }, () => {
      uuidv7();
      return next();
    });
    expect([...minted].sort()).toEqual(minted);
  });
});
