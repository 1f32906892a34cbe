import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import { sqlArray } from '../../lib/sql-array.js';
import type { FormDefinition, ResolvedForm } from './definition/index.js';
import { questionsOf } from './definition/tree.js';

/** A question, option, row or column that a new definition drops while stored responses answer it. */
export interface AnsweredRemoval {
  kind: 'question' | 'option' | 'row' | 'column';
  /** question key, or <question key>.<choice key> */
  key: string;
  name: string;
  responses: number;
}

interface Removal extends Omit<AnsweredRemoval, 'responses'> {
  questionId: string;
  /** the choice id; null for a whole question */
  choiceId: string | null;
}

/** What `next` drops of `previous`, by key (the identity that keeps ids). */
function removals(previous: ResolvedForm, next: FormDefinition): Removal[] {
  const nextQuestions = new Map(next.sections.flatMap((section) => section.questions).map((q) => [q.key, q]));
  return questionsOf(previous).flatMap((question): Removal[] => {
    const kept = nextQuestions.get(question.key);
    if (!kept) return [{ kind: 'question', key: question.key, name: question.name, questionId: question.id, choiceId: null }];
    return (['options', 'rows', 'columns'] as const).flatMap((list) =>
      (question[list] ?? [])
        .filter((choice) => !kept[list]?.some((k) => k.key === choice.key))
        .map((choice): Removal => ({ kind: list === 'options' ? 'option' : list === 'rows' ? 'row' : 'column', key: `${question.key}.${choice.key}`, name: choice.name, questionId: question.id, choiceId: choice.id })),
    );
  });
}

/**
 * The removals of `next` that stored responses answer, with how many: the panel asks before such
 * a save. Nothing stored is touched; the answers keep their ids and stay readable in the API.
 * An option is answered as a RADIO/SELECT value or inside a CHECKBOX/RANKING list, a row as a
 * MATRIX key, a column as a MATRIX value.
 */
export async function answeredRemovals(tx: Tx, input: { companyId: string; formId: string; previous: ResolvedForm; next: FormDefinition }): Promise<AnsweredRemoval[]> {
  const dropped = removals(input.previous, input.next);
  if (dropped.length === 0) return [];
  const { rows } = await tx.execute<{ i: number; n: number }>(sql`
    SELECT t.i::int AS i, count(r.id)::int AS n
    FROM unnest(${sqlArray('text', dropped.map((d) => d.questionId))}, ${sqlArray('text', dropped.map((d) => d.choiceId))}) WITH ORDINALITY AS t(q, c, i)
    JOIN responses r ON r.company_id = ${input.companyId} AND r.form_id = ${input.formId} AND (
      CASE WHEN t.c IS NULL THEN r.answers ? t.q
      ELSE r.answers -> t.q @> to_jsonb(t.c)
        OR (jsonb_typeof(r.answers -> t.q) = 'object' AND (r.answers -> t.q ? t.c OR EXISTS (SELECT 1 FROM jsonb_each_text(r.answers -> t.q) e WHERE e.value = t.c)))
      END)
    GROUP BY t.i`);
  return rows.map((row) => {
    const { kind, key, name } = dropped[row.i - 1];
    return { kind, key, name, responses: row.n };
  });
}
