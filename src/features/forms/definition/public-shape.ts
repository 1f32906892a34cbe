/**
 * The public API shape of a stored form (`content` of GET /forms/{id}, schema FormDetail in
 * ../schemas.ts): no keys, descriptions or conditions. Every question carries `options` (empty
 * unless it is a choice type) so clients can read the list without testing the type first;
 * rows and columns are MATRIX only.
 */
import type { Static } from '@sinclair/typebox';
import type { FormChoice, FormQuestion } from '../schemas.js';
import { compact, questionsOf } from './tree.js';
import type { ResolvedChoice, ResolvedForm } from './types.js';

type PublicChoice = Static<typeof FormChoice>;
type PublicQuestion = Omit<Static<typeof FormQuestion>, 'options' | 'rows' | 'columns'> & {
  options: PublicChoice[];
  rows?: PublicChoice[];
  columns?: PublicChoice[];
};
export interface PublicFormContent {
  sections: { id: string; name: string; questions: PublicQuestion[] }[];
}

function publicChoices(choices: ResolvedChoice[] | undefined): PublicChoice[] | undefined {
  return choices?.map(({ id, name, order }) => ({ id, name, order }));
}

export function toPublicContent(resolved: ResolvedForm): PublicFormContent {
  return {
    sections: resolved.sections.map((section) => ({
      id: section.id,
      name: section.name,
      questions: section.questions.map((q) =>
        compact({
          id: q.id,
          name: q.name,
          type: q.type,
          mandatory: q.mandatory,
          options: publicChoices(q.options) ?? [],
          rows: publicChoices(q.rows),
          columns: publicChoices(q.columns),
        }),
      ),
    })),
  };
}

export function questionCount(resolved: ResolvedForm): number {
  return questionsOf(resolved).length;
}
