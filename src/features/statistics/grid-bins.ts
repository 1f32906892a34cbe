import type { ResolvedQuestion } from '../forms/index.js';
import { sketchBucket } from './number-sketch.js';

/** A NUMBER question's answer grid (origin + k·step, as answer validation checks it), when it is whole-numbered. */
export interface WholeGrid {
  origin: number;
  step: number;
}

export function wholeGridOf(question: ResolvedQuestion): WholeGrid | null {
  const origin = question.min ?? 0;
  const { step } = question;
  return step !== undefined && Number.isInteger(step) && Number.isInteger(origin) ? { origin, step } : null;
}

export const isGridValue = (value: number, grid: WholeGrid) => Number.isInteger((value - grid.origin) / grid.step);

/** The smallest and largest grid values the write path (sketchBucket) puts in the bucket, or null when none. */
export function gridValuesIn(bucket: string, range: { from: number; to: number }, grid: WholeGrid): { first: number; last: number } | null {
  const at = (k: number) => grid.origin + k * grid.step;
  // One step of slack each side: the bucket, not float comparisons with its bounds, decides.
  const kLow = Math.floor((range.from - grid.origin) / grid.step) - 1;
  const kHigh = Math.ceil((range.to - grid.origin) / grid.step) + 1;
  let first: number | null = null;
  for (let k = kLow; k <= kHigh && first === null; k++) if (sketchBucket(at(k)) === bucket) first = at(k);
  if (first === null) return null;
  for (let k = kHigh; k >= kLow; k--) if (sketchBucket(at(k)) === bucket) return { first, last: at(k) };
  return null;
}

/** The grid value nearest to a point of [first, last]. */
export function nearestGridValue(value: number, bounds: { first: number; last: number }, grid: WholeGrid): number {
  const snapped = grid.origin + Math.round((value - grid.origin) / grid.step) * grid.step;
  return Math.min(bounds.last, Math.max(bounds.first, snapped));
}
