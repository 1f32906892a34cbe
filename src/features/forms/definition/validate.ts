/** validateFormDefinition: the structural (TypeBox) and semantic checks of an authoring file. */
import { Value } from '@sinclair/typebox/value';
import type { FieldError } from '../../../lib/errors.js';
import { childPath, fieldError } from '../../../lib/field-errors.js';
import { schemaErrors } from '../../../lib/schema-errors.js';
import { parseInstant } from '../../../lib/date-time.js';
import { isUuid } from '../../../lib/ids.js';
import { emailTemplateErrors } from './email-template-errors.js';
import { hiddenFieldErrors } from './hidden-field-errors.js';
import { pipingErrors } from './piping.js';
import { translationErrors } from './translation-errors.js';
import { CombinatorSchemas, FormDefinitionSchema, LeafConditionSchema } from './schema.js';
import { isRecord, questionsOf } from './tree.js';
import type { FormDefinition, LeafConditionDefinition, Operand, ResolvedChoice, ResolvedForm, Result } from './types.js';
import {
  CONDITION_OPERATORS, DIM_ANSWER_TYPES, DIM_KINDS, DIM_SOURCES, DIM_SOURCES_BY_KIND, MAX_CONDITION_DEPTH, OPERAND_KIND,
  ORDERED_OPERANDS, QUESTION_TYPES, SCALAR_OPERAND_RULES, STAR_MAX_LIMIT, TYPE_PROPERTIES, TYPED_PROPERTIES,
  type ConditionOperator, type OperandKind, type QuestionType, type TypedProperty,
} from './vocabulary.js';

type Json = Record<string, unknown>;

/**
 * Checks an authoring file and applies its defaults. Structural errors come from TypeBox; the
 * semantic checks read a tolerant view of the input so that both kinds are reported together.
 */
export function validateFormDefinition(input: unknown): Result<FormDefinition> {
  const structural = schemaErrors(FormDefinitionSchema, input);
  const semantic = isRecord(input) ? semanticErrors(input) : [];
  const errors = dedupeErrors([...structural, ...semantic]);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: Value.Default(FormDefinitionSchema, Value.Clone(input)) as FormDefinition };
}

function dedupeErrors(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const id = `${error.path}\u0000${error.code}`;
    return seen.has(id) ? false : (seen.add(id), true);
  });
}

/** A keyed item of the input as far as it can be read; absent fields were malformed. */
interface ItemView {
  path: string;
  key?: string;
  id?: string;
}
interface QuestionView extends ItemView {
  raw: Json;
  type?: QuestionType;
  /** position of the question in document order, across sections */
  position: number;
  options: ItemView[];
  rows: ItemView[];
  columns: ItemView[];
}
interface SectionView extends ItemView {
  raw: Json;
  /** position of its first question (or of the next question, when empty) */
  firstPosition: number;
  questions: QuestionView[];
}

function recordsAt(list: unknown, path: string): { raw: Json; path: string }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw, index) => (isRecord(raw) ? [{ raw, path: childPath(path, index) }] : []));
}

function itemView(raw: Json, path: string): ItemView {
  return {
    path,
    key: typeof raw.key === 'string' ? raw.key : undefined,
    id: typeof raw.id === 'string' ? raw.id : undefined,
  };
}

function readSections(form: Json): SectionView[] {
  let position = 0;
  return recordsAt(form.sections, 'sections').map(({ raw, path }) => {
    const firstPosition = position;
    const questions = recordsAt(raw.questions, childPath(path, 'questions')).map((q) => readQuestion(q.raw, q.path, position++));
    return { ...itemView(raw, path), raw, firstPosition, questions };
  });
}

function readQuestion(raw: Json, path: string, position: number): QuestionView {
  const choices = (name: 'options' | 'rows' | 'columns') =>
    recordsAt(raw[name], childPath(path, name)).map((choice) => itemView(choice.raw, choice.path));
  return {
    ...itemView(raw, path),
    raw,
    type: QUESTION_TYPES.find((type) => type === raw.type),
    position,
    options: choices('options'),
    rows: choices('rows'),
    columns: choices('columns'),
  };
}

function semanticErrors(form: Json): FieldError[] {
  const sections = readSections(form);
  const questions = sections.flatMap((section) => section.questions);
  const questionsByKey = firstByKey(questions);
  const choices = questions.flatMap((q) => [...q.options, ...q.rows, ...q.columns]);
  return [
    ...duplicateKeyErrors(sections, 'section'),
    ...duplicateKeyErrors(questions, 'question'),
    ...questions.flatMap(questionRuleErrors),
    ...explicitIdFormatErrors([...sections, ...questions, ...choices]),
    ...sections.flatMap((s) => visibleIfErrors(s.raw, s.path, { before: s.firstPosition, questionsByKey })),
    ...questions.flatMap((q) => visibleIfErrors(q.raw, q.path, { before: q.position, questionsByKey })),
    ...sections.flatMap(shuffleConditionErrors),
    ...dimErrors(form.dims, questionsByKey),
    ...emailTemplateErrors(form.email, form.dims),
    ...emailTemplateErrors(form.reminder, form.dims, 'reminder'),
    ...closesAtErrors(form.settings),
    ...hiddenFieldErrors(form),
    ...pipingErrors(form),
    ...translationErrors(form),
  ];
}

/** settings.closesAt is an instant with its offset (the API's timestamps); a past one is allowed: it closes the form now. */
function closesAtErrors(settings: unknown): FieldError[] {
  if (!isRecord(settings) || typeof settings.closesAt !== 'string' || parseInstant(settings.closesAt) !== null) return [];
  return [fieldError('settings.closesAt', 'invalid_format', 'The closing date must be a date and time with its offset, such as 2026-03-01T12:00:00.000Z.')];
}

function firstByKey<T extends ItemView>(items: T[]): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const item of items) if (item.key !== undefined && !byKey.has(item.key)) byKey.set(item.key, item);
  return byKey;
}

function duplicateKeyErrors(items: ItemView[], what: string): FieldError[] {
  const first = firstByKey(items);
  return items
    .filter((item) => item.key !== undefined && first.get(item.key) !== item)
    .map((item) =>
      fieldError(childPath(item.path, 'key'), 'not_unique', `The ${what} key "${item.key}" is already used at ${first.get(item.key!)!.path}.`),
    );
}

function explicitIdFormatErrors(items: ItemView[]): FieldError[] {
  const seen = new Map<string, string>();
  return items.flatMap((item) => {
    if (item.id === undefined) return [];
    const path = childPath(item.path, 'id');
    if (!isUuid(item.id)) return [fieldError(path, 'invalid_format', 'id must be a UUID given by the service; omit it for new items.')];
    const earlier = seen.get(item.id);
    if (earlier) return [fieldError(path, 'not_unique', `The id is already used at ${earlier}.`)];
    seen.set(item.id, item.path);
    return [];
  });
}

/** The question keys a condition names, as far as it can be read. */
function conditionKeys(condition: unknown): string[] {
  if (Array.isArray(condition)) return condition.flatMap(conditionKeys);
  if (!isRecord(condition)) return [];
  if (typeof condition.question === 'string') return [condition.question];
  return [...conditionKeys(condition.all), ...conditionKeys(condition.any)];
}

/**
 * A shuffled section could show a question before the one its condition reads (the page reveals
 * it in place), so shuffleQuestions refuses conditions on questions of the same section.
 */
function shuffleConditionErrors(section: SectionView): FieldError[] {
  if (section.raw.shuffleQuestions !== true) return [];
  const keys = new Set(section.questions.map((q) => q.key));
  const dependent = section.questions.filter((q) => conditionKeys(q.raw.visibleIf).some((key) => keys.has(key)));
  return dependent.map((q) => fieldError(childPath(q.path, 'visibleIf'), 'invalid_reference', `In a section with shuffleQuestions a condition may not read a question of the same section (${q.key}).`));
}

// --- per-type question rules ---

function questionRuleErrors(question: QuestionView): FieldError[] {
  if (question.type === undefined) return [];
  return [
    ...typedPropertyErrors(question, question.type),
    ...boundsErrors(question, question.type),
    ...duplicateKeyErrors(question.options, 'option'),
    ...duplicateKeyErrors(question.rows, 'row'),
    ...duplicateKeyErrors(question.columns, 'column'),
    ...anchoredErrors(question),
  ];
}

/** Only options are shuffled, so only an option can be anchored (kept last); a row or column saying so is refused. */
function anchoredErrors(question: QuestionView): FieldError[] {
  return (['rows', 'columns'] as const).flatMap((list) =>
    recordsAt(question.raw[list], childPath(question.path, list))
      .filter(({ raw }) => raw.anchored !== undefined)
      .map(({ path }) => fieldError(childPath(path, 'anchored'), 'not_applicable', `anchored applies to options only, not to ${list}.`)),
  );
}

function typedPropertyErrors(question: QuestionView, type: QuestionType): FieldError[] {
  const rules = TYPE_PROPERTIES[type];
  return TYPED_PROPERTIES.flatMap((property) => {
    const value = question.raw[property];
    const path = childPath(question.path, property);
    const rule = rules[property];
    if (rule === undefined) {
      return value === undefined ? [] : [fieldError(path, 'not_applicable', `${property} is not allowed on ${type} questions.`)];
    }
    const missing = value === undefined || (Array.isArray(value) && value.length === 0);
    return rule === 'required' && missing ? [fieldError(path, 'required', `${type} questions need ${describeRequired(property)}.`)] : [];
  });
}

function describeRequired(property: TypedProperty): string {
  return ['options', 'rows', 'columns'].includes(property) ? `at least one item in ${property}` : property;
}

function boundsErrors(question: QuestionView, type: QuestionType): FieldError[] {
  const { min, max } = question.raw;
  const maxPath = childPath(question.path, 'max');
  if (type === 'STAR' && typeof max === 'number' && !(Number.isInteger(max) && max >= 1 && max <= STAR_MAX_LIMIT)) {
    return [fieldError(maxPath, 'invalid_value', `max of a STAR question must be a whole number from 1 to ${STAR_MAX_LIMIT}.`)];
  }
  if (typeof min === 'number' && typeof max === 'number' && !(min < max)) {
    return [fieldError(maxPath, 'invalid_value', `max (${max}) must be greater than min (${min}).`)];
  }
  return [];
}

// --- conditions ---

interface ConditionContext {
  /** conditions may only refer to questions at a smaller position */
  before: number;
  questionsByKey: Map<string, QuestionView>;
}

function visibleIfErrors(owner: Json, ownerPath: string, context: ConditionContext): FieldError[] {
  if (owner.visibleIf === undefined) return [];
  return conditionErrors(owner.visibleIf, childPath(ownerPath, 'visibleIf'), context, 1);
}

function conditionErrors(node: unknown, path: string, context: ConditionContext, depth: number): FieldError[] {
  if (!isRecord(node)) return [fieldError(path, 'invalid_type', 'A condition must be an object.')];
  if (depth > MAX_CONDITION_DEPTH) {
    return [fieldError(path, 'invalid_value', `Conditions may nest at most ${MAX_CONDITION_DEPTH} levels.`)];
  }
  const combinator = 'all' in node ? 'all' : 'any' in node ? 'any' : null;
  if (combinator === null) return leafConditionErrors(node, path, context);
  const structural = schemaErrors(CombinatorSchemas[combinator], node, path);
  if (structural.length > 0) return structural;
  return (node[combinator] as unknown[]).flatMap((child, index) =>
    conditionErrors(child, childPath(childPath(path, combinator), index), context, depth + 1),
  );
}

function leafConditionErrors(node: Json, path: string, context: ConditionContext): FieldError[] {
  const structural = schemaErrors(LeafConditionSchema, node, path);
  if (structural.length > 0) return structural;
  const leaf = node as LeafConditionDefinition;
  const questionPath = childPath(path, 'question');
  const target = context.questionsByKey.get(leaf.question);
  if (target === undefined) {
    return [fieldError(questionPath, 'unknown_reference', `No question has the key "${leaf.question}".`)];
  }
  if (target.position >= context.before) {
    return [fieldError(questionPath, 'invalid_reference', `Question "${leaf.question}" does not come before this condition; a condition may only depend on earlier questions.`)];
  }
  const operators = CONDITION_OPERATORS.filter((operator) => leaf[operator] !== undefined);
  if (operators.length === 0) {
    return [fieldError(path, 'required', `A condition needs at least one of ${CONDITION_OPERATORS.join(', ')}.`)];
  }
  if (target.type === undefined) return [];
  return operators.flatMap((operator) => operatorErrors(operator, leaf, childPath(path, operator), target, target.type!));
}

function operatorErrors(operator: ConditionOperator, leaf: LeafConditionDefinition, path: string, target: QuestionView, type: QuestionType): FieldError[] {
  if (operator === 'answered') return [];
  const kind = OPERAND_KIND[type];
  const orderedOnly = operator === 'gte' || operator === 'lte';
  if (kind === 'none' || (orderedOnly && !ORDERED_OPERANDS.has(kind))) {
    return [fieldError(path, 'not_applicable', `${operator} cannot be used on ${type} question "${target.key}".`)];
  }
  if (operator === 'in') return leaf.in!.flatMap((value, index) => operandErrors(value, childPath(path, index), target, kind));
  return operandErrors(leaf[operator]!, path, target, kind);
}

function operandErrors(value: Operand, path: string, target: QuestionView, kind: Exclude<OperandKind, 'none'>): FieldError[] {
  if (kind === 'option') {
    if (typeof value !== 'string') return [fieldError(path, 'invalid_value', `Must be an option key of question "${target.key}".`)];
    const known = target.options.some((option) => option.key === value);
    return known ? [] : [fieldError(path, 'unknown_reference', `Question "${target.key}" has no option with the key "${value}".`)];
  }
  const rule = SCALAR_OPERAND_RULES[kind];
  return rule.test(value) ? [] : [fieldError(path, 'invalid_value', `Must be ${rule.expected} to compare with question "${target.key}".`)];
}

/**
 * Errors of a condition written against a stored form's question keys (a treatment flow's `when`):
 * the same checks as a visibleIf, every question of the form being "before" it.
 */
export function storedFormConditionErrors(condition: unknown, form: ResolvedForm, path: string): FieldError[] {
  const choiceViews = (choices: ResolvedChoice[] | undefined) => (choices ?? []).map((c) => ({ path, key: c.key, id: c.id }));
  const views = questionsOf(form).map((q, position): QuestionView => ({
    path, key: q.key, id: q.id, raw: {}, type: q.type, position,
    options: choiceViews(q.options), rows: choiceViews(q.rows), columns: choiceViews(q.columns),
  }));
  return conditionErrors(condition, path, { before: Infinity, questionsByKey: firstByKey(views) }, 1);
}

// --- dims ---

function dimErrors(dims: unknown, questionsByKey: Map<string, QuestionView>): FieldError[] {
  const views = recordsAt(dims, 'dims').map(({ raw, path }) => ({ raw, path, key: typeof raw.key === 'string' ? raw.key : undefined }));
  return [
    ...duplicateKeyErrors(views, 'dim'),
    ...views.flatMap((view) => dimSourceErrors(view.raw, view.path, questionsByKey)),
    ...extraUnitDimErrors(views),
  ];
}

function dimSourceErrors(dim: Json, path: string, questionsByKey: Map<string, QuestionView>): FieldError[] {
  const kind = DIM_KINDS.find((k) => k === dim.kind);
  const source = DIM_SOURCES.find((s) => s === (dim.source ?? 'invite'));
  if (kind === undefined || source === undefined) return [];
  const questionPath = childPath(path, 'question');
  if (!DIM_SOURCES_BY_KIND[kind].includes(source)) {
    return [fieldError(childPath(path, 'source'), 'invalid_value', `A ${kind} dim can come from ${DIM_SOURCES_BY_KIND[kind].join(', ')}, not ${source}.`)];
  }
  if (source !== 'answer') {
    return dim.question === undefined ? [] : [fieldError(questionPath, 'not_applicable', 'question is only allowed when source is "answer".')];
  }
  if (typeof dim.question !== 'string') {
    return dim.question === undefined ? [fieldError(questionPath, 'required', 'A dim with source "answer" needs the key of its question.')] : [];
  }
  const question = questionsByKey.get(dim.question);
  if (question === undefined) return [fieldError(questionPath, 'unknown_reference', `No question has the key "${dim.question}".`)];
  if (question.type !== undefined && !DIM_ANSWER_TYPES[kind].includes(question.type)) {
    return [fieldError(questionPath, 'invalid_reference', `A ${kind} dim needs a ${DIM_ANSWER_TYPES[kind].join(' or ')} question, not ${question.type}.`)];
  }
  return [];
}

/** The unit dim gives the response its org unit (orgUnitId, orgPath), so there can be only one. */
function extraUnitDimErrors(views: { raw: Json; path: string }[]): FieldError[] {
  return views
    .filter((view) => view.raw.kind === 'unit')
    .slice(1)
    .map((view) => fieldError(childPath(view.path, 'kind'), 'not_unique', 'A form may declare at most one unit dim.'));
}
