import { describe, expect, it } from 'vitest';
import { batchWhileBusy } from './batch-while-busy.js';

describe('batchWhileBusy', () => {
  it('runs a lone call alone and gathers the calls made while a batch runs into the next', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const call = batchWhileBusy<number, number>(async (items) => {
      batches.push([...items]);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((n) => n * 10);
    });
    const first = call(1);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [call(2), call(3), call(4)];
    release();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('rejects only the caller whose item fails: a failed batch is retried one item at a time', async () => {
    const call = batchWhileBusy<number, number>(async (items) => {
      if (items.includes(13)) throw new Error(items.length === 1 ? 'thirteen' : 'batch failed');
      return items.map((n) => n + 1);
    });
    const results = await Promise.allSettled([call(1), call(13), call(2)]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new Error('thirteen') },
      { status: 'fulfilled', value: 3 },
    ]);
  });

  it('rejects the callers an item-level Error names and answers the rest', async () => {
    const call = batchWhileBusy<number, number>(async (items) => items.map((n) => (n < 0 ? new Error(`negative ${n}`) : n)));
    const results = await Promise.allSettled([call(5), call(-1)]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 5 });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { message: 'negative -1' } });
  });
});
