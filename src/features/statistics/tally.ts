import type { Fact } from './response-facts.js';

/** Summed facts of one item: what a rollup row holds, merged over days (or a scan). */
export interface Counter {
  n: number;
  total: number;
  totalSq: number;
  min: number | null;
  max: number | null;
}

/** Counters by `${questionId}|${questionType}|${item}`: the figures of one cut, before shaping. */
export type Tally = Map<string, Counter>;

export const tallyKey = (questionId: string, questionType: string, item: string) => `${questionId}|${questionType}|${item}`;

export function addCounter(tally: Tally, key: string, counter: Counter): void {
  const current = tally.get(key);
  if (!current) {
    tally.set(key, { ...counter });
    return;
  }
  current.n += counter.n;
  current.total += counter.total;
  current.totalSq += counter.totalSq;
  if (counter.min !== null) current.min = current.min === null ? counter.min : Math.min(current.min, counter.min);
  if (counter.max !== null) current.max = current.max === null ? counter.max : Math.max(current.max, counter.max);
}

/** A scan's way to build what the rollups hold. */
export function addFacts(tally: Tally, facts: Fact[]): void {
  for (const fact of facts) {
    const x = fact.value;
    addCounter(tally, tallyKey(fact.questionId, fact.questionType, fact.item), {
      n: 1,
      total: x ?? 0,
      totalSq: x === null ? 0 : x * x,
      min: x,
      max: x,
    });
  }
}

export const counterOf = (tally: Tally, questionId: string, questionType: string, item: string) => tally.get(tallyKey(questionId, questionType, item));

/** A counter as a rollup row's tally holds it (migration 0520): n alone, or [n, total, totalSq, min, max] when it has values. */
export type StoredCounter = number | [number, number, number, number, number];

export function storedTally(tally: Tally): Record<string, StoredCounter> {
  return Object.fromEntries(
    [...tally].map(([key, c]) => [key, c.min === null || c.max === null ? c.n : [c.n, c.total, c.totalSq, c.min, c.max]] as const),
  );
}
