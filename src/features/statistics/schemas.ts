import { Type, type TSchema } from '@sinclair/typebox';
import { SKETCH_RELATIVE_ERROR } from './number-sketch.js';

// Nullable fields as type arrays, as in responses/schemas.ts (fast-json-stringify dispatches them by typeof).
const nullable = (schema: TSchema & { type: string }, description?: string) =>
  Type.Unsafe<number | string | null>({ ...schema, type: [schema.type, 'null'], ...(description ? { description } : {}) });
const NullableNumber = (description?: string) => nullable(Type.Number(), description);
const NullableDay = (description: string) => nullable(Type.String({ format: 'date' }), description);
const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description ? { description } : {}) });

const ERROR_PERCENT = (SKETCH_RELATIVE_ERROR * 100).toFixed(2);

const Choice = { id: Type.String(), key: Type.String(), name: Type.String() };

const QuestionFigures = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    name: Type.String(),
    type: Type.String(),
    answered: Count('Responses that answered the question (blank text, empty lists and objects do not count). Exact.'),
    options: Type.Optional(
      Type.Array(
        Type.Object(
          {
            ...Choice,
            count: Type.Optional(Count('Choice types and BOOLEAN (ids "true" and "false"): responses that chose it. Exact.')),
            share: Type.Optional(Type.Number({ description: 'count / answered (CHECKBOX shares may add up to more than 1). Exact.' })),
            meanRank: Type.Optional(NullableNumber('RANKING: mean position, 1 = most preferred. Exact.')),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    rows: Type.Optional(
      Type.Array(
        Type.Object(
          { ...Choice, columns: Type.Array(Type.Object({ ...Choice, count: Count() }, { additionalProperties: false })) },
          { additionalProperties: false, description: 'MATRIX: responses per row × column. Exact.' },
        ),
      ),
    ),
    count: Type.Optional(Count('Numeric types: answered count. Exact.')),
    mean: Type.Optional(NullableNumber('Exact.')),
    stddev: Type.Optional(NullableNumber('Population standard deviation. Exact up to floating point.')),
    median: Type.Optional(
      NullableNumber(
        `Mean of the two middle values when the count is even. Exact for RANGE, STAR and NPS; for NUMBER an estimate from a ` +
          `log-bucketed sketch: each middle value is off by at most ${ERROR_PERCENT}% of its magnitude; on a whole-number grid ` +
          `(integer step and min) each middle value is the grid value nearest that estimate within its bin: exact up to 50 in magnitude, beyond it off by less than the bin's width (2%).`,
      ),
    ),
    min: Type.Optional(NullableNumber('Exact.')),
    max: Type.Optional(NullableNumber('Exact.')),
    histogram: Type.Optional(
      Type.Array(Type.Object({ from: Type.Number(), to: Type.Number(), count: Count() }, { additionalProperties: false }), {
        description:
          'Non-empty bins in value order. RANGE, STAR, NPS: one bin per value (from = to). NUMBER: sketch buckets ' +
          'whose bounds grow by 2% in magnitude (exact counts per bucket), mirrored around zero: a positive bin holds ' +
          'from < value ≤ to, a negative one from ≤ value < to (so -1 falls in the bin from -1), zero its own bin (from = to = 0). ' +
          'NUMBER on a whole-number grid (integer step and min, every answer on it): the same buckets as the grid values they hold, ' +
          'from ≤ value ≤ to with from and to on the grid (from = to: one value, so every value up to 50 in magnitude has its own bin).',
      }),
    ),
    nps: Type.Optional(
      Type.Object(
        {
          promoters: Count('9 and 10'),
          passives: Count('7 and 8'),
          detractors: Count('0 to 6'),
          score: NullableNumber('(promoters − detractors) × 100 / count, −100..100'),
        },
        { additionalProperties: false, description: 'NPS only. Exact.' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'Figures of one question of the form as it is now; text, date, time and file types have answered only.',
  },
);

const statisticsFields = {
  responseCount: Count('Responses in the cut. Exact unless truncated.'),
  completedCount: Count('Of those, the finalized ones (completedAt set).'),
  firstAt: nullable(Type.String({ format: 'date-time' })),
  lastAt: nullable(Type.String({ format: 'date-time' })),
  questions: Type.Array(QuestionFigures),
};

export const Statistics = Type.Object(
  {
    ...statisticsFields,
    truncated: Type.Boolean({
      description:
        'true when the cut could not be read from the rollups (two or more dim filters, or a dim filter with another grouping) ' +
        'and had more responses than the scan ceiling: the figures then cover the newest ones only; narrow from/to. ' +
        'Whole-form and single-dim cuts are never truncated.',
    }),
    scanned: Count('Responses the figures cover.'),
    from: NullableDay('The period covered (null: open end). Anonymous forms widen it to blocks of days holding at least the floor of responses.'),
    to: NullableDay('See from.'),
  },
  { $id: 'Statistics', additionalProperties: false },
);

const GroupStatistics = Type.Object(statisticsFields, { additionalProperties: false });

export const Report = Type.Object(
  {
    groupBy: Type.String(),
    groups: Type.Array(
      Type.Object(
        {
          key: Type.String({ description: 'The canonical dim value, or the unit id (orgUnit: the unit and its subtree)' }),
          name: Type.Optional(
            Type.Union([Type.String(), Type.Null()], {
              description: "(extension) The unit's, course's or teacher's name when the key is an entity id; null for other dims. Only on a group that is shown (suppressed: false).",
            }),
          ),
          suppressed: Type.Boolean({
            description:
              'true: the group is under the anonymity floor, or suppressed so that no combination of groups reveals one that is; no figures.',
          }),
          statistics: Type.Optional(GroupStatistics),
        },
        { additionalProperties: false },
      ),
    ),
    truncated: Type.Boolean({ description: 'As in Statistics.' }),
    scanned: Count('Responses the figures cover (all groups together).'),
    from: NullableDay('As in Statistics.'),
    to: NullableDay('As in Statistics.'),
  },
  { $id: 'Report', additionalProperties: false },
);

export const statisticsSchemas = [Statistics, Report];
