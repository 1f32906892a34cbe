/**
 * Log-bucketed sketch for free NUMBER answers (the DDSketch idea): a positive value v falls in
 * bucket i = ceil(log_γ v), covering (γ^(i-1), γ^i]; a negative one the mirror, [-γ^i, -γ^(i-1)); zero its own.
 * Buckets are counters, so sketches merge by addition (days, groups) and reverse on deletion.
 * Reading a bucket back as 2γ^i/(γ+1) is off by at most (γ-1)/(γ+1) of the value: with γ = 1.02,
 * under 1% (SKETCH_RELATIVE_ERROR).
 */
const GAMMA = 1.02;
const LOG_GAMMA = Math.log(GAMMA);
export const SKETCH_RELATIVE_ERROR = (GAMMA - 1) / (GAMMA + 1);

export function sketchBucket(value: number): string {
  if (value === 0) return 'z';
  const index = Math.ceil(Math.log(Math.abs(value)) / LOG_GAMMA);
  return `${value > 0 ? 'p' : 'n'}${index}`;
}

export interface SketchBucketRange {
  /** sort position: negatives (largest magnitude first), zero, positives */
  rank: number;
  from: number;
  to: number;
  estimate: number;
}

export function sketchBucketRange(bucket: string): SketchBucketRange {
  if (bucket === 'z') return { rank: 0, from: 0, to: 0, estimate: 0 };
  const index = Number(bucket.slice(1));
  const low = GAMMA ** (index - 1);
  const high = GAMMA ** index;
  const estimate = (2 * high) / (GAMMA + 1);
  return bucket[0] === 'p'
    ? { rank: 1e6 + index, from: low, to: high, estimate }
    : { rank: -1e6 - index, from: -high, to: -low, estimate: -estimate };
}
