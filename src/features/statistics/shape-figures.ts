import type { ResolvedChoice, ResolvedForm, ResolvedQuestion } from '../forms/index.js';
import { gridValuesIn, isGridValue, nearestGridValue, wholeGridOf, type WholeGrid } from './grid-bins.js';
import { sketchBucketRange } from './number-sketch.js';
import { counterOf, type Tally } from './tally.js';

interface HistogramBin {
  from: number;
  to: number;
  count: number;
  /** the value the median reads for this bin */
  estimate: number;
}

/** Bins of a numeric question in value order: exact values for scales, sketch buckets for NUMBER. */
function histogram(tally: Tally, question: ResolvedQuestion): HistogramBin[] {
  const prefix = `${question.id}|${question.type}|`;
  const bins: (HistogramBin & { rank: number; bucket?: string })[] = [];
  for (const [key, counter] of tally) {
    if (!key.startsWith(prefix) || counter.n === 0) continue;
    const item = key.slice(prefix.length);
    if (item.startsWith('v:')) {
      const value = Number(item.slice(2));
      bins.push({ rank: value, from: value, to: value, count: counter.n, estimate: value });
    } else if (item.startsWith('b:')) {
      const range = sketchBucketRange(item.slice(2));
      bins.push({ rank: range.rank, bucket: item.slice(2), from: range.from, to: range.to, count: counter.n, estimate: range.estimate });
    }
  }
  const sorted = bins.sort((a, b) => a.rank - b.rank);
  const grid = question.type === 'NUMBER' ? wholeGridOf(question) : null;
  const answered = counterOf(tally, question.id, question.type, 'answered');
  const extremesOnGrid = grid && [answered?.min ?? null, answered?.max ?? null].every((value) => value === null || isGridValue(value, grid));
  const onGrid = grid && extremesOnGrid ? alignToGrid(sorted, grid) : null;
  return (onGrid ?? sorted).map(({ from, to, count, estimate }) => ({ from, to, count, estimate }));
}

/**
 * Sketch buckets as the grid values they hold, so whole-number answers get whole-number bins
 * (a bucket holds one value up to 50 in magnitude, then a few neighbours) and the median reads
 * the grid value nearest the bucket's estimate. Null when some answer is off the grid (recorded
 * before the step was set; min and max are checked too): the buckets then stay as they are.
 */
function alignToGrid(bins: (HistogramBin & { bucket?: string })[], grid: WholeGrid): HistogramBin[] | null {
  const aligned: HistogramBin[] = [];
  for (const bin of bins) {
    const values = bin.bucket === undefined ? null : gridValuesIn(bin.bucket, bin, grid);
    if (!values) return null;
    aligned.push({ from: values.first, to: values.last, count: bin.count, estimate: nearestGridValue(bin.estimate, values, grid) });
  }
  return aligned;
}

/** The k-th smallest value (0-based) as the bins can tell it. */
function nth(bins: HistogramBin[], k: number): number {
  let seen = 0;
  for (const bin of bins) {
    seen += bin.count;
    if (k < seen) return bin.estimate;
  }
  return bins.at(-1)!.estimate;
}

/** The usual median (mean of the two middle values when the count is even), clamped to [min, max]. */
function median(bins: HistogramBin[], count: number, min: number, max: number): number {
  const middle = (nth(bins, Math.floor((count - 1) / 2)) + nth(bins, Math.ceil((count - 1) / 2))) / 2;
  return Math.min(max, Math.max(min, middle));
}

function numericFigures(tally: Tally, question: ResolvedQuestion) {
  const c = counterOf(tally, question.id, question.type, 'answered');
  const count = c?.n ?? 0;
  const bins = histogram(tally, question);
  const base = {
    count,
    mean: count > 0 ? c!.total / count : null,
    stddev: count > 0 ? Math.sqrt(Math.max(0, c!.totalSq / count - (c!.total / count) ** 2)) : null,
    median: count > 0 ? median(bins, count, c!.min!, c!.max!) : null,
    min: count > 0 ? c!.min : null,
    max: count > 0 ? c!.max : null,
    histogram: bins.map(({ from, to, count: n }) => ({ from, to, count: n })),
  };
  if (question.type !== 'NPS') return base;
  const within = (low: number, high: number) => bins.filter((bin) => bin.from >= low && bin.from <= high).reduce((sum, bin) => sum + bin.count, 0);
  const promoters = within(9, 10);
  const detractors = within(0, 6);
  return {
    ...base,
    nps: { promoters, passives: count - promoters - detractors, detractors, score: count > 0 ? ((promoters - detractors) * 100) / count : null },
  };
}

const BOOLEAN_OPTIONS: ResolvedChoice[] = [
  { id: 'true', key: 'true', name: 'Yes', order: 0 },
  { id: 'false', key: 'false', name: 'No', order: 1 },
];

function typeFigures(tally: Tally, question: ResolvedQuestion, answered: number) {
  const count = (item: string) => counterOf(tally, question.id, question.type, item)?.n ?? 0;
  const choice = ({ id, key, name }: ResolvedChoice) => ({ id, key, name });
  switch (question.type) {
    case 'RADIO':
    case 'SELECT':
    case 'CHECKBOX':
    case 'BOOLEAN':
      return {
        options: (question.type === 'BOOLEAN' ? BOOLEAN_OPTIONS : question.options!).map((option) => {
          const n = count(`o:${option.id}`);
          return { ...choice(option), count: n, share: answered > 0 ? n / answered : 0 };
        }),
      };
    case 'RANKING':
      return {
        options: question.options!.map((option) => {
          const c = counterOf(tally, question.id, question.type, `o:${option.id}`);
          return { ...choice(option), meanRank: c && c.n > 0 ? c.total / c.n : null };
        }),
      };
    case 'MATRIX':
      return {
        rows: question.rows!.map((row) => ({
          ...choice(row),
          columns: question.columns!.map((column) => ({ ...choice(column), count: count(`c:${row.id}:${column.id}`) })),
        })),
      };
    case 'NUMBER':
    case 'RANGE':
    case 'STAR':
    case 'NPS':
      return numericFigures(tally, question);
    default:
      return {};
  }
}

/**
 * The figures of one cut, for the form as it is now: removed questions, options and types are
 * left out (their counters stay in the rollups but nothing reads them), added ones start at zero.
 */
export function shapeStatistics(form: ResolvedForm, tally: Tally) {
  const responses = counterOf(tally, '', '', 'responses');
  const responseCount = responses?.n ?? 0;
  return {
    responseCount,
    completedCount: counterOf(tally, '', '', 'completed')?.n ?? 0,
    firstAt: responseCount > 0 ? new Date(responses!.min!).toISOString() : null,
    lastAt: responseCount > 0 ? new Date(responses!.max!).toISOString() : null,
    questions: form.sections.flatMap((section) =>
      section.questions.map((question) => {
        const answered = counterOf(tally, question.id, question.type, 'answered')?.n ?? 0;
        return { id: question.id, key: question.key, name: question.name, type: question.type, answered, ...typeFigures(tally, question, answered) };
      }),
    ),
  };
}

export type StatisticsFigures = ReturnType<typeof shapeStatistics>;
