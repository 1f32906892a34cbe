/** Id assignment: stable across imports by key (sections and questions form-wide, choices within their question). */
import type { FieldError } from '../../../lib/errors.js';
import { validationError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import { uuidv7 } from '../../../lib/ids.js';
import { compact, mapCondition, questionsOf } from './tree.js';
import type {
  ConditionDefinition, FormDefinition, LeafConditionDefinition, Operand, QuestionDefinition, ResolvedChoice, ResolvedCondition,
  ResolvedDim, ResolvedForm, ResolvedLeafCondition, ResolvedQuestion, ResolvedSection, Result,
} from './types.js';
import { validateFormDefinition } from './validate.js';
import { OPERAND_KIND, RANGE_DEFAULT_STEP, STAR_DEFAULT_MAX, type ConditionOperator } from './vocabulary.js';

type ChoiceList = 'options' | 'rows' | 'columns';

/** Looks up ids of the previous version by key (questions form-wide, choices within their question). */
class PreviousIds {
  private readonly sections: Map<string, ResolvedSection>;
  private readonly questions: Map<string, ResolvedQuestion>;

  constructor(previous: ResolvedForm | null) {
    this.sections = new Map(previous?.sections.map((s) => [s.key, s]) ?? []);
    this.questions = new Map(previous ? questionsOf(previous).map((q) => [q.key, q]) : []);
  }

  section(key: string): string | undefined {
    return this.sections.get(key)?.id;
  }

  question(key: string): string | undefined {
    return this.questions.get(key)?.id;
  }

  choice(questionKey: string, list: ChoiceList, key: string): string | undefined {
    return this.questions.get(questionKey)?.[list]?.find((choice) => choice.key === key)?.id;
  }
}

/**
 * Explicit ids in a file must be the ids the previous version has at the same keys (they come
 * from an export); anything else would silently re-point stored answers.
 */
export function checkExplicitIds(def: FormDefinition, previous: ResolvedForm | null): FieldError[] {
  const ids = new PreviousIds(previous);
  const errors: FieldError[] = [];
  const check = (explicit: string | undefined, expected: string | undefined, path: string, what: string) => {
    if (explicit === undefined || explicit === expected) return;
    errors.push(fieldError(childPath(path, 'id'), 'invalid_value', `This id does not belong to the ${what} with this key in the current version of the form; omit it to get a new id.`));
  };
  def.sections.forEach((section, s) => {
    const sectionPath = childPath('sections', s);
    check(section.id, ids.section(section.key), sectionPath, 'section');
    section.questions.forEach((question, q) => {
      const questionPath = childPath(childPath(sectionPath, 'questions'), q);
      check(question.id, ids.question(question.key), questionPath, 'question');
      for (const list of ['options', 'rows', 'columns'] as const) {
        question[list]?.forEach((choice, c) =>
          check(choice.id, ids.choice(question.key, list, choice.key), childPath(childPath(questionPath, list), c), list.slice(0, -1)),
        );
      }
    });
  });
  return errors;
}

/**
 * Resolves a validated definition into the stored form: ids kept by key from `previous`, new
 * ids from `newId`, defaults materialized, conditions and answer-sourced dims pointing at ids.
 * Throws a VALIDATION_ERROR ApiError when the file carries foreign ids (see checkExplicitIds).
 */
export function assignIds(def: FormDefinition, previous: ResolvedForm | null, newId: () => string = uuidv7): ResolvedForm {
  const idErrors = checkExplicitIds(def, previous);
  if (idErrors.length > 0) throw validationError(idErrors, 'The form definition carries ids that do not belong to it.');
  return buildResolvedForm(def, previous, newId);
}

/** assignIds without the explicit-id check, for callers that have already run it. */
function buildResolvedForm(def: FormDefinition, previous: ResolvedForm | null, newId: () => string): ResolvedForm {
  const ids = new PreviousIds(previous);
  const resolvedByKey = new Map<string, ResolvedQuestion>();
  const resolveCondition = (condition: ConditionDefinition | undefined) =>
    condition === undefined ? undefined : mapCondition(condition, (leaf) => resolveLeaf(leaf, resolvedByKey));

  const sections = def.sections.map((section): ResolvedSection => {
    const id = ids.section(section.key) ?? newId();
    const visibleIf = resolveCondition(section.visibleIf);
    const questions = section.questions.map((question) => {
      const resolved = resolveQuestion(question, ids, newId, resolveCondition(question.visibleIf));
      resolvedByKey.set(question.key, resolved);
      return resolved;
    });
    const shuffle = { shuffleQuestions: section.shuffleQuestions || undefined, shuffleOptions: section.shuffleOptions || undefined } as const;
    return compact({ id, key: section.key, name: section.name, description: section.description, visibleIf, ...shuffle, questions });
  });
  const declared = def.dims.map((dim): ResolvedDim =>
    compact({ key: dim.key, kind: dim.kind, source: dim.source, questionId: dim.question && resolvedByKey.get(dim.question)!.id }),
  );
  // a hidden field is a text dim the public link sets: every reader of dims (responses, statistics, exports) knows it as one
  const hidden = (def.hiddenFields ?? []).map((key): ResolvedDim => ({ key, kind: 'text', source: 'link' }));
  const hiddenFields = def.hiddenFields && def.hiddenFields.length > 0 ? def.hiddenFields : undefined;
  return compact({ version: 1 as const, dims: [...declared, ...hidden], sections, email: def.email, reminder: def.reminder, thankYou: def.thankYou, hiddenFields, translations: def.translations });
}

function resolveQuestion(question: QuestionDefinition, ids: PreviousIds, newId: () => string, visibleIf: ResolvedCondition | undefined): ResolvedQuestion {
  const resolveChoices = (list: ChoiceList) =>
    question[list]?.map((choice, order): ResolvedChoice => ({
      id: ids.choice(question.key, list, choice.key) ?? newId(),
      key: choice.key,
      name: choice.name,
      order,
      ...(choice.anchored ? { anchored: true as const } : {}),
    }));
  return compact({
    id: ids.question(question.key) ?? newId(),
    key: question.key,
    name: question.name,
    type: question.type,
    mandatory: question.mandatory,
    description: question.description,
    options: resolveChoices('options'),
    rows: resolveChoices('rows'),
    columns: resolveChoices('columns'),
    min: question.min,
    max: question.type === 'STAR' ? (question.max ?? STAR_DEFAULT_MAX) : question.max,
    step: question.type === 'RANGE' ? (question.step ?? RANGE_DEFAULT_STEP) : question.step,
    visibleIf,
  });
}

/** A condition written with question and option keys (checked by storedFormConditionErrors) pointed at the stored form's ids. */
export function resolveConditionOnForm(condition: ConditionDefinition, form: ResolvedForm): ResolvedCondition {
  const byKey = new Map(questionsOf(form).map((q) => [q.key, q]));
  return mapCondition(condition, (leaf) => resolveLeaf(leaf, byKey));
}

function resolveLeaf(leaf: LeafConditionDefinition, questionsByKey: Map<string, ResolvedQuestion>): ResolvedLeafCondition {
  const { question: key, ...operators } = leaf;
  const question = questionsByKey.get(key)!;
  return { questionId: question.id, ...mapOperands(operators, question, (option) => option.key, (option) => option.id) };
}

/** Rewrites option operands of a choice question between keys and ids; other operands pass. */
export function mapOperands<T extends Partial<Record<ConditionOperator, unknown>>>(
  operators: T,
  question: ResolvedQuestion,
  from: (option: ResolvedChoice) => string,
  to: (option: ResolvedChoice) => string,
): T {
  if (OPERAND_KIND[question.type] !== 'option') return operators;
  const swap = (value: Operand) => {
    const option = question.options!.find((o) => from(o) === value);
    return option ? to(option) : value;
  };
  return compact({
    ...operators,
    equals: operators.equals === undefined ? undefined : swap(operators.equals as Operand),
    notEquals: operators.notEquals === undefined ? undefined : swap(operators.notEquals as Operand),
    in: (operators.in as Operand[] | undefined)?.map(swap),
  });
}

/** Validate, check explicit ids and resolve in one step: what `quorum form import` needs. */
export function resolveFormDefinition(
  input: unknown,
  previous: ResolvedForm | null,
  newId: () => string = uuidv7,
): Result<{ definition: FormDefinition; resolved: ResolvedForm }> {
  const validated = validateFormDefinition(input);
  if (!validated.ok) return validated;
  const idErrors = checkExplicitIds(validated.value, previous);
  if (idErrors.length > 0) return { ok: false, errors: idErrors };
  return { ok: true, value: { definition: validated.value, resolved: buildResolvedForm(validated.value, previous, newId) } };
}
