import type { TestApp } from './harness.js';
import { importEntityFile } from '../src/features/entities/import-entities.js';
import { listEntities } from '../src/features/entities/list-entities.js';
import { findForm, type FormRecord } from '../src/features/forms/find-form.js';
import { importForm } from '../src/features/forms/import-form.js';
import { recordResponse, type RecordResponseInput } from '../src/features/responses/record-response.js';

/** A form with one dim of each scanned kind (an entity, a number, a date) and two questions. */
export const SURVEY = {
  slug: 'course-survey',
  name: 'Course survey',
  dims: [
    { key: 'course', kind: 'course', source: 'invite' },
    { key: 'cohortYear', kind: 'number', source: 'invite' },
    { key: 'termStart', kind: 'date', source: 'invite' },
  ],
  sections: [
    {
      key: 'main',
      name: 'Main',
      questions: [
        { key: 'rating', name: 'Rate the course', type: 'STAR', mandatory: true },
        { key: 'comment', name: 'Anything else?', type: 'TEXT' },
      ],
    },
  ],
};

export interface Survey {
  form: FormRecord;
  /** course code → entity id */
  courses: Record<string, string>;
  ratingId: string;
  commentId: string;
}

/** SURVEY in the company, with the courses MATH101 and HIST101 registered. */
export async function createSurvey(t: TestApp, companyId: string): Promise<Survey> {
  await importEntityFile(t.ctx.db, t.ctx, { companyId, text: 'kind,code,name\ncourse,MATH101,Algebra\ncourse,HIST101,History\n', format: 'csv' });
  const { id } = await importForm(t.ctx.db, t.ctx, { companyId, rawJson: SURVEY });
  const form = (await findForm(t.ctx.db, t.ctx, { companyId, id }))!;
  const courses = await listEntities(t.ctx.db, t.ctx, { companyId, kind: 'course' });
  const [rating, comment] = form.content.sections[0].questions;
  return { form, courses: Object.fromEntries(courses.map((course) => [course.code, course.id])), ratingId: rating.id, commentId: comment.id };
}

export type ResponseSpec = Partial<Omit<RecordResponseInput, 'form'>> & { at?: string | Date };

/** Records `count` responses through the service, created at `at` (the clock) or now; returns their ids. */
export async function addResponses(t: TestApp, survey: Survey, count: number, spec: ResponseSpec = {}): Promise<string[]> {
  const { at, ...input } = spec;
  if (at !== undefined) t.clock.set(at);
  return t.ctx.db.transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const row = await recordResponse(tx, t.ctx, { form: survey.form, answers: { [survey.ratingId]: 1 + (i % 5) }, ...input });
      ids.push(row.id);
    }
    return ids;
  });
}
