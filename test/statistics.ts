import type { TestApp } from './harness.js';
import { importEntityFile } from '../src/features/entities/import-entities.js';
import { listEntities } from '../src/features/entities/list-entities.js';
import { findForm, type FormRecord } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import type { ResolvedQuestion } from '../src/features/forms/definition/index.js';
import { recordResponse, type RecordResponseInput } from '../src/features/responses/record-response.js';

/** A form with every question type the statistics shape differently, and three dims. */
export function statisticsForm(slug = 'stats-survey', anonymous = false) {
  const choices = (...keys: string[]) => keys.map((key) => ({ key, name: `Option ${key}` }));
  return {
    slug,
    name: 'Statistics survey',
    settings: { anonymous },
    dims: [
      { key: 'course', kind: 'text', source: 'invite' },
      { key: 'year', kind: 'number', source: 'invite' },
      { key: 'campus', kind: 'unit', source: 'invite' },
    ],
    sections: [
      {
        key: 'main',
        name: 'Main',
        questions: [
          { key: 'pick', name: 'Pick one', type: 'RADIO', options: choices('A', 'B', 'C') },
          { key: 'many', name: 'Pick any', type: 'CHECKBOX', options: choices('X', 'Y') },
          { key: 'agree', name: 'Agree?', type: 'BOOLEAN' },
          { key: 'amount', name: 'How much?', type: 'NUMBER' },
          { key: 'stars', name: 'Stars', type: 'STAR' },
          { key: 'nps', name: 'Recommend?', type: 'NPS' },
          { key: 'range', name: 'Range', type: 'RANGE', min: 0, max: 10, step: 2 },
          { key: 'grid', name: 'Grid', type: 'MATRIX', rows: choices('r1', 'r2'), columns: choices('c1', 'c2') },
          { key: 'rank', name: 'Rank', type: 'RANKING', options: choices('p', 'q', 'r') },
          { key: 'note', name: 'Note', type: 'TEXT' },
          { key: 'when', name: 'When', type: 'DATE' },
        ],
      },
    ],
  };
}

export interface StatsSurvey {
  form: FormRecord;
  q: Record<string, ResolvedQuestion>;
  /** option, row or column key → id, per question key */
  o: Record<string, Record<string, string>>;
}

export async function loadSurvey(t: TestApp, companyId: string, formId: string): Promise<StatsSurvey> {
  const form = (await findForm(t.ctx.db, t.ctx, { companyId, id: formId }))!;
  const questions = form.content.sections.flatMap((section) => section.questions);
  const q = Object.fromEntries(questions.map((question) => [question.key, question]));
  const o = Object.fromEntries(
    questions.map((question) => [
      question.key,
      Object.fromEntries([...(question.options ?? []), ...(question.rows ?? []), ...(question.columns ?? [])].map((c) => [c.key, c.id])),
    ]),
  );
  return { form, q, o };
}

export async function createStatsSurvey(t: TestApp, companyId: string, options: { slug?: string; anonymous?: boolean } = {}): Promise<StatsSurvey> {
  const { id } = await importForm(t.ctx.db, t.ctx, { companyId, rawJson: statisticsForm(options.slug, options.anonymous) });
  return loadSurvey(t, companyId, id);
}

/** Units ROOT > U1 > U1a, U1b and ROOT > U2; code → { id, path }. */
export async function createUnits(t: TestApp, companyId: string): Promise<Record<string, { id: string; path: string }>> {
  const csv = 'kind,code,name,parentCode\nunit,ROOT,Root,\nunit,U1,One,ROOT\nunit,U2,Two,ROOT\nunit,U1a,One a,U1\nunit,U1b,One b,U1\n';
  await importEntityFile(t.ctx.db, t.ctx, { companyId, text: csv, format: 'csv' });
  const units = await listEntities(t.ctx.db, t.ctx, { companyId, kind: 'unit' });
  return Object.fromEntries(units.map((unit) => [unit.code, { id: unit.id, path: unit.orgPath! }]));
}

export type Spec = Partial<Omit<RecordResponseInput, 'form'>> & { at: string };

/** Records the responses through the service (and so through the rollups), each at its time. */
export async function record(t: TestApp, survey: StatsSurvey, specs: Spec[]): Promise<string[]> {
  const ids: string[] = [];
  for (const { at, ...input } of specs) {
    t.clock.set(at);
    ids.push((await t.ctx.db.transaction((tx) => recordResponse(tx, t.ctx, { form: survey.form, answers: {}, ...input }))).id);
  }
  return ids;
}
