/** Export of a stored form back to the authoring format. */
import { mapOperands } from './ids.js';
import { compact, mapCondition, questionsOf } from './tree.js';
import type { ConditionDefinition, FormDefinition, FormMeta, LeafConditionDefinition, QuestionDefinition, ResolvedChoice, ResolvedCondition, ResolvedLeafCondition, ResolvedForm, ResolvedQuestion } from './types.js';

/** The authoring file of a stored form, ids included, so that re-importing it keeps every id. */
export function exportFormDefinition(resolved: ResolvedForm, meta: FormMeta): FormDefinition {
  const byId = new Map(questionsOf(resolved).map((q) => [q.id, q]));
  const exportCondition = (condition: ResolvedCondition | undefined) =>
    condition === undefined ? undefined : mapCondition(condition, (leaf) => exportLeaf(leaf, byId));
  return compact({
    version: 1 as const,
    slug: meta.slug,
    name: meta.name,
    description: meta.description,
    thankYou: resolved.thankYou,
    settings: { ...meta.settings },
    hiddenFields: resolved.hiddenFields,
    dims: resolved.dims.filter((dim) => !resolved.hiddenFields?.includes(dim.key)).map((dim) =>
      compact({ key: dim.key, kind: dim.kind, source: dim.source, question: dim.questionId && byId.get(dim.questionId)?.key }),
    ),
    sections: resolved.sections.map((section) =>
      compact({
        id: section.id,
        key: section.key,
        name: section.name,
        description: section.description,
        visibleIf: exportCondition(section.visibleIf),
        shuffleQuestions: section.shuffleQuestions,
        shuffleOptions: section.shuffleOptions,
        questions: section.questions.map((question) => exportQuestion(question, exportCondition(question.visibleIf))),
      }),
    ),
    email: resolved.email,
    reminder: resolved.reminder,
    translations: resolved.translations,
  });
}

/** A stored condition on `form` (question and option ids) in the authoring language (keys), as a flow file writes it. */
export function exportConditionOnForm(condition: ResolvedCondition, form: ResolvedForm): ConditionDefinition {
  const byId = new Map(questionsOf(form).map((q) => [q.id, q]));
  return mapCondition(condition, (leaf) => exportLeaf(leaf, byId));
}

function exportQuestion(question: ResolvedQuestion, visibleIf: ConditionDefinition | undefined): QuestionDefinition {
  const exportChoices = (choices: ResolvedChoice[] | undefined) => choices?.map(({ id, key, name, anchored }) => compact({ id, key, name, anchored }));
  return compact({
    ...question,
    options: exportChoices(question.options),
    rows: exportChoices(question.rows),
    columns: exportChoices(question.columns),
    visibleIf,
  });
}

function exportLeaf(leaf: ResolvedLeafCondition, byId: Map<string, ResolvedQuestion>): LeafConditionDefinition {
  const { questionId, ...operators } = leaf;
  const question = byId.get(questionId)!;
  return { question: question.key, ...mapOperands(operators, question, (option) => option.id, (option) => option.key) };
}
