import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { forms } from '../../platform/db/schema.js';
import { ManualClock } from '../../lib/clock.js';
import { idGeneratorFor } from '../../lib/ids.js';
import type { DemoSeeder } from '../../demo/index.js';
import { canonicalScalarDim, type ScalarDimKind } from '../dims/index.js';
import { listEntities } from '../entities/index.js';
import type { OrgSource } from '../events/index.js';
import { RANGE_DEFAULT_STEP, STAR_DEFAULT_MAX, type Answers, type ResolvedDim, type ResolvedForm, type ResolvedQuestion } from '../forms/index.js';
import { isVisible } from '../forms/index.js';
import type { FormRecord } from '../forms/index.js';
import { recordResponse, type RecordResponseInput } from './record-response.js';

/**
 * A few thousand responses on the demo forms, spread over the last five months, so that scans,
 * period and dim filters (and statistics) have something to show. Answers follow each form's
 * question types and visibility rules; dims are canonical (entities by id). Random but
 * reproducible: one seeded generator.
 */

const RESPONSES_PER_FORM = 1_000;
const DAYS_BACK = 150;
const DAY_MS = 86_400_000;
const OPTIONAL_ANSWERED = 0.8;

type Random = () => number;

/** mulberry32: small, fast, seeded. */
function seededRandom(seed: number): Random {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const between = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const TEXTS = ['Clear and well paced', 'Too fast at the end', 'Great examples', 'More exercises please', 'Helpful', 'Challenging but fair'];

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  return items.map((item) => ({ item, key: random() })).sort((a, b) => a.key - b.key).map(({ item }) => item);
}

/** A value on the question's grid: min + k·step, within [min, max]. */
function gridNumber(random: Random, min: number, max: number, step: number): number {
  return min + step * between(random, 0, Math.floor((max - min) / step));
}

/** A valid answer value for the question's type (spec: Question types and answer value shapes). */
function answerValue(random: Random, question: ResolvedQuestion, nowMs: number): unknown {
  const optionIds = (question.options ?? []).map((option) => option.id);
  switch (question.type) {
    case 'TEXT':
      return pick(random, TEXTS);
    case 'PARAGRAPH':
      return `${pick(random, TEXTS)}. ${pick(random, TEXTS)}.`;
    case 'DATE':
      return isoDay(nowMs - between(random, 30, 1_000) * DAY_MS);
    case 'TIME':
      return `${pad(between(random, 7, 20))}:${pad(between(random, 0, 3) * 15)}`;
    case 'DATETIME':
      return new Date(nowMs - between(random, 1, 60 * 24 * 60) * 60_000).toISOString();
    case 'NUMBER':
      return gridNumber(random, question.min ?? 0, question.max ?? 100, question.step ?? 1);
    case 'RANGE':
      return gridNumber(random, question.min!, question.max!, question.step ?? RANGE_DEFAULT_STEP);
    case 'NPS':
      return Math.min(10, between(random, 3, 10) + between(random, 0, 1));
    case 'STAR':
      return between(random, Math.max(1, (question.max ?? STAR_DEFAULT_MAX) - 3), question.max ?? STAR_DEFAULT_MAX);
    case 'BOOLEAN':
      return random() < 0.75;
    case 'RADIO':
    case 'SELECT':
      return pick(random, optionIds);
    case 'CHECKBOX':
      return shuffled(random, optionIds).slice(0, between(random, 1, optionIds.length));
    case 'RANKING':
      return shuffled(random, optionIds);
    case 'MATRIX':
      return Object.fromEntries((question.rows ?? []).map((row) => [row.id, pick(random, question.columns ?? []).id]));
    case 'FILE':
      return [{ fileId: `demo-file-${between(random, 1, 99_999)}`, name: 'screenshot.png', size: between(random, 10_000, 900_000), mime: 'image/png' }];
  }
}

/** Walks the form in order, as a respondent does: a question hidden by earlier answers gets none. */
function demoAnswers(random: Random, content: ResolvedForm, nowMs: number): Answers {
  const answers: Answers = {};
  for (const section of content.sections) {
    if (!isVisible(section.visibleIf, answers)) continue;
    for (const question of section.questions) {
      if (!isVisible(question.visibleIf, answers) || (!question.mandatory && random() > OPTIONAL_ANSWERED)) continue;
      answers[question.id] = answerValue(random, question, nowMs);
    }
  }
  return answers;
}

interface DemoEntity {
  id: string;
  code: string;
  orgPath: string | null;
}
type EntitiesByKind = Map<string, DemoEntity[]>;

const ENTITY_DIM_KINDS = new Set(['course', 'teacher', 'unit']);
/**
 * A unit that joined lately: only the last few responses of a form with a unit dim name it, so an
 * anonymous form's report by unit shows one unit under the anonymity floor (the README's tour).
 */
const PILOT_UNIT = 'ONLINE-PILOT';
const PILOT_RESPONSES = 3;
const SCALAR_SAMPLES: Record<ScalarDimKind, (random: Random, nowMs: number) => unknown> = {
  text: (random) => pick(random, ['Cohort A', 'Cohort B', 'Evening']),
  number: (random) => between(random, 2024, 2026),
  date: (random, nowMs) => isoDay(nowMs - between(random, 0, 3) * 120 * DAY_MS),
};

/** What the invite, the link or the answer would have carried: an entity code, or a raw scalar. */
function rawDimValue(random: Random, dim: ResolvedDim, content: ResolvedForm, answers: Answers, entities: EntitiesByKind, nowMs: number, pilot: boolean): unknown {
  if (dim.source === 'answer') {
    const question = content.sections.flatMap((s) => s.questions).find((q) => q.id === dim.questionId);
    const answer = answers[dim.questionId!];
    return question?.options?.find((option) => option.id === answer)?.key ?? answer;
  }
  if (dim.kind === 'unit' && pilot) return PILOT_UNIT;
  if (ENTITY_DIM_KINDS.has(dim.kind)) return pick(random, (entities.get(dim.kind) ?? []).filter((entity) => entity.code !== PILOT_UNIT))?.code;
  return SCALAR_SAMPLES[dim.kind as ScalarDimKind](random, nowMs);
}

/** Canonical dims (entity ids, decimal text, YYYY-MM-DD) and the org unit the unit dim gives. */
function demoDims(random: Random, form: FormRecord, answers: Answers, entities: EntitiesByKind, nowMs: number, pilot: boolean) {
  const dims: Record<string, string> = {};
  let org: RecordResponseInput['org'] = null;
  for (const dim of form.dims) {
    const raw = rawDimValue(random, dim, form.content, answers, entities, nowMs, pilot);
    if (raw === undefined) continue;
    if (ENTITY_DIM_KINDS.has(dim.kind)) {
      const entity = entities.get(dim.kind)?.find((e) => e.code === raw);
      if (!entity) continue;
      dims[dim.key] = entity.id;
      if (dim.kind === 'unit') org = { unitId: entity.id, path: entity.orgPath!, source: dim.source as OrgSource };
    } else {
      const canonical = canonicalScalarDim(dim.kind as ScalarDimKind, raw);
      if (canonical.ok) dims[dim.key] = canonical.value;
    }
  }
  return { dims, org };
}

function demoRespondent(random: Random, form: FormRecord, n: number): RecordResponseInput['respondent'] {
  if (form.anonymous || (!form.requiresInvite && random() < 0.5)) return null;
  return { name: `Student ${n}`, email: `student${n}@demo.example`, externalId: `S-${10_000 + n}` };
}

async function seedForm(db: Db, form: FormRecord, entities: EntitiesByKind, nowMs: number, random: Random): Promise<void> {
  const times = Array.from({ length: RESPONSES_PER_FORM }, () => nowMs - Math.floor(random() * DAYS_BACK * DAY_MS)).sort((a, b) => a - b);
  const clock = new ManualClock(times[0]);
  // A past with no consumer: no goal crossings or cases (their seeders make their own), and the
  // rollups built once afterwards (statistics' seedDemoRollups) rather than a pending row each.
  const deps = { clock, newId: idGeneratorFor(clock), eventConsumers: [], responseConsumers: [] };
  await db.transaction(async (tx) => {
    for (const [n, at] of times.entries()) {
      clock.set(at);
      const answers = demoAnswers(random, form.content, at);
      const { dims, org } = demoDims(random, form, answers, entities, at, n >= times.length - PILOT_RESPONSES);
      await recordResponse(tx, deps, { form, answers, dims, org, respondent: demoRespondent(random, form, n) });
    }
  });
}

export const seedDemoResponses: DemoSeeder = async (ctx, company) => {
  // The forms seeder ran first (demoSeeders order); without forms there is nothing to answer.
  const demoForms = await ctx.db.select().from(forms).where(eq(forms.companyId, company.id)).orderBy(asc(forms.slug));
  const entities: EntitiesByKind = new Map();
  for (const entity of await listEntities(ctx.db, ctx, { companyId: company.id })) entities.set(entity.kind, [...(entities.get(entity.kind) ?? []), entity]);
  const random = seededRandom(20_260_301);
  for (const form of demoForms) await seedForm(ctx.db, form, entities, ctx.clock.now().getTime(), random);
};
