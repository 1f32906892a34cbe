/**
 * Form definitions: the JSON authoring format, its validator, id assignment, the stored
 * (resolved) form, its public API shape, conditional visibility and answer validation.
 * No database here: the importer and the respondent side build on these pure functions.
 *
 * Authoring format (full description and rules in ./README.md, example in
 * ./examples/all-question-types.json):
 *
 *   {
 *     "version": 1,                                  optional, the only version is 1
 *     "slug": "course-feedback",                     identity for create-or-update
 *     "name": "Course feedback", "description": "…",
 *     "settings": { "isPublic": false, "isClosed": false, "requiresInvite": false, "anonymous": false },
 *     "dims": [ { "key": "course", "kind": "course", "source": "invite" },
 *               { "key": "campus", "kind": "unit", "source": "answer", "question": "campus" } ],
 *     "sections": [ { "key": "about", "name": "About you", "visibleIf": <condition>,
 *       "questions": [ { "key": "campus", "name": "Where do you study?", "type": "RADIO",
 *                        "mandatory": true, "options": [ { "key": "north", "name": "North" } ] } ] } ]
 *   }
 *
 *   condition: { "question": "<earlier question key>", "equals" | "notEquals": value, "in": [values],
 *                "gte" | "lte": number or date/time string, "answered": boolean }
 *              | { "all": [condition, …] } | { "any": [condition, …] }
 *
 * Authors write keys; the service assigns ids (UUIDv7) and keeps them stable across imports by
 * key: sections and questions by their form-wide key, options, rows and columns by their key
 * within their question. The stored form refers to questions and options by id only.
 */
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import { validationError, type FieldError } from '../../lib/errors.js';
import { isUuid, uuidv7 } from '../../lib/ids.js';
import { isIsoDate, isIsoDateTime, parseIsoDateTime } from '../dims/canonical.js';

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

export const QUESTION_TYPES = [
  'TEXT', 'PARAGRAPH', 'DATE', 'TIME', 'DATETIME', 'NUMBER', 'RANGE', 'NPS', 'STAR',
  'BOOLEAN', 'RADIO', 'SELECT', 'CHECKBOX', 'RANKING', 'MATRIX', 'FILE',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const DIM_KINDS = ['course', 'teacher', 'unit', 'text', 'number', 'date'] as const;
export type DimKind = (typeof DIM_KINDS)[number];

export const DIM_SOURCES = ['invite', 'link', 'answer', 'class'] as const;
export type DimSource = (typeof DIM_SOURCES)[number];

/** Where each kind of dim may come from. A class has one course and one unit but possibly several teachers. */
const DIM_SOURCES_BY_KIND: Record<DimKind, readonly DimSource[]> = {
  course: ['invite', 'link', 'answer', 'class'],
  teacher: ['invite', 'link', 'answer'],
  unit: ['invite', 'link', 'answer', 'class'],
  text: ['invite', 'link', 'answer'],
  number: ['invite', 'link', 'answer'],
  date: ['invite', 'link', 'answer'],
};

/** Question types whose answer can feed a dim with source "answer" (choice: the chosen option's key). */
const DIM_ANSWER_TYPES: Record<DimKind, readonly QuestionType[]> = {
  course: ['RADIO', 'SELECT'],
  teacher: ['RADIO', 'SELECT'],
  unit: ['RADIO', 'SELECT'],
  text: ['TEXT', 'RADIO', 'SELECT'],
  number: ['NUMBER', 'RANGE', 'NPS', 'STAR'],
  date: ['DATE'],
};

type TypedProperty = 'options' | 'rows' | 'columns' | 'min' | 'max' | 'step';
const TYPED_PROPERTIES: readonly TypedProperty[] = ['options', 'rows', 'columns', 'min', 'max', 'step'];

/** Type-specific question properties: which a type allows, and which of those it requires. */
const TYPE_PROPERTIES: Record<QuestionType, Partial<Record<TypedProperty, 'required' | 'optional'>>> = {
  TEXT: {}, PARAGRAPH: {}, DATE: {}, TIME: {}, DATETIME: {}, NPS: {}, BOOLEAN: {}, FILE: {},
  NUMBER: { min: 'optional', max: 'optional', step: 'optional' },
  RANGE: { min: 'required', max: 'required', step: 'optional' },
  STAR: { max: 'optional' },
  RADIO: { options: 'required' },
  SELECT: { options: 'required' },
  CHECKBOX: { options: 'required' },
  RANKING: { options: 'required' },
  MATRIX: { rows: 'required', columns: 'required' },
};

/** Types answered with option ids: RADIO, SELECT, CHECKBOX, RANKING. */
export const CHOICE_TYPES: readonly QuestionType[] = QUESTION_TYPES.filter((type) => TYPE_PROPERTIES[type].options === 'required');

export const STAR_DEFAULT_MAX = 5;
export const STAR_MAX_LIMIT = 10;
export const RANGE_DEFAULT_STEP = 1;
export const MAX_TEXT_ANSWER_LENGTH = 10_000;
const MAX_CONDITION_DEPTH = 8;

/** What a condition operand on a question of each type must be; "none" allows only `answered`. */
type OperandKind = 'option' | 'boolean' | 'number' | 'text' | 'date' | 'time' | 'datetime' | 'none';
const OPERAND_KIND: Record<QuestionType, OperandKind> = {
  TEXT: 'text', PARAGRAPH: 'text', DATE: 'date', TIME: 'time', DATETIME: 'datetime',
  NUMBER: 'number', RANGE: 'number', NPS: 'number', STAR: 'number', BOOLEAN: 'boolean',
  RADIO: 'option', SELECT: 'option', CHECKBOX: 'option', RANKING: 'none', MATRIX: 'none', FILE: 'none',
};
const ORDERED_OPERANDS: ReadonlySet<OperandKind> = new Set(['number', 'date', 'time', 'datetime']);

const TIME_RE = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
export function isTime(text: string): boolean {
  return TIME_RE.test(text);
}

const SCALAR_OPERAND_RULES: Record<Exclude<OperandKind, 'option' | 'none'>, { test: (v: unknown) => boolean; expected: string }> = {
  boolean: { test: (v) => typeof v === 'boolean', expected: 'a boolean' },
  number: { test: (v) => typeof v === 'number', expected: 'a number' },
  text: { test: (v) => typeof v === 'string', expected: 'a string' },
  date: { test: (v) => typeof v === 'string' && isIsoDate(v), expected: 'a date as YYYY-MM-DD' },
  time: { test: (v) => typeof v === 'string' && isTime(v), expected: 'a time as HH:MM' },
  datetime: { test: (v) => typeof v === 'string' && isIsoDateTime(v), expected: 'an ISO 8601 timestamp with a zone' },
};

// ---------------------------------------------------------------------------------------------
// Structural schema (TypeBox). Custom `errorCode` / `errorMessage` options word pattern errors.
// ---------------------------------------------------------------------------------------------

function literalUnion<T extends string>(values: readonly T[], options: object = {}): TUnion<TLiteral<T>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as TUnion<TLiteral<T>[]>;
}

/** Human text: non-empty and not only blanks. */
function humanText(maxLength: number) {
  return Type.String({ minLength: 1, maxLength, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' });
}

const KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$';
const ItemKey = Type.String({
  pattern: KEY_PATTERN,
  errorMessage: 'must be 1 to 64 letters, digits or . _ : -, starting with a letter or digit',
});
const Description = Type.String({ maxLength: 5000 });
const ExplicitId = Type.String();

export const ChoiceSchema = Type.Object(
  { id: Type.Optional(ExplicitId), key: ItemKey, name: humanText(500) },
  { additionalProperties: false },
);
const Choices = Type.Array(ChoiceSchema, { maxItems: 200 });

const Operand = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const OrderedOperand = Type.Union([Type.Number(), Type.String()]);

export const LeafConditionSchema = Type.Object(
  {
    question: ItemKey,
    equals: Type.Optional(Operand),
    notEquals: Type.Optional(Operand),
    in: Type.Optional(Type.Array(Operand, { minItems: 1, maxItems: 200 })),
    gte: Type.Optional(OrderedOperand),
    lte: Type.Optional(OrderedOperand),
    answered: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const CONDITION_OPERATORS = ['equals', 'notEquals', 'in', 'gte', 'lte', 'answered'] as const;
type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Combinators are checked one level at a time so that errors point inside nested conditions. */
const CombinatorSchemas = {
  all: Type.Object({ all: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
  any: Type.Object({ any: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 50 }) }, { additionalProperties: false }),
};

const QuestionSchema = Type.Object(
  {
    id: Type.Optional(ExplicitId),
    key: ItemKey,
    name: humanText(2000),
    type: literalUnion(QUESTION_TYPES),
    mandatory: Type.Optional(Type.Boolean({ default: false })),
    description: Type.Optional(Description),
    options: Type.Optional(Choices),
    rows: Type.Optional(Choices),
    columns: Type.Optional(Choices),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    visibleIf: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

const SectionSchema = Type.Object(
  {
    id: Type.Optional(ExplicitId),
    key: ItemKey,
    name: humanText(500),
    description: Type.Optional(Description),
    visibleIf: Type.Optional(Type.Unknown()),
    questions: Type.Array(QuestionSchema, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

const DimSchema = Type.Object(
  {
    key: Type.String({
      pattern: '^[a-z][a-zA-Z0-9_]{0,39}$',
      errorMessage: 'must be 1 to 40 letters, digits or _, starting with a lower-case letter',
    }),
    kind: literalUnion(DIM_KINDS),
    source: Type.Optional(literalUnion(DIM_SOURCES, { default: 'invite' })),
    question: Type.Optional(ItemKey),
  },
  { additionalProperties: false },
);

const SettingsSchema = Type.Object(
  {
    isPublic: Type.Optional(Type.Boolean({ default: false })),
    isClosed: Type.Optional(Type.Boolean({ default: false })),
    requiresInvite: Type.Optional(Type.Boolean({ default: false })),
    anonymous: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false, default: {} },
);

/** JSON Schema of the authoring file (conditions are typed `unknown` here and checked by hand). */
export const FormDefinitionSchema = Type.Object(
  {
    version: Type.Optional(Type.Literal(1)),
    slug: Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
      errorMessage: 'must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter or digit',
    }),
    name: humanText(200),
    description: Type.Optional(Description),
    settings: Type.Optional(SettingsSchema),
    dims: Type.Optional(Type.Array(DimSchema, { maxItems: 20, default: [] })),
    sections: Type.Array(SectionSchema, { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------
// Types: the authoring definition (after defaults) and the resolved (stored) form
// ---------------------------------------------------------------------------------------------

export type Operand = string | number | boolean;
/** A condition tree; leaves differ between the authoring format (keys) and the stored form (ids). */
export type Condition<Leaf> = Leaf | { all: Condition<Leaf>[] } | { any: Condition<Leaf>[] };

export type LeafConditionDefinition = Static<typeof LeafConditionSchema>;
export type ConditionDefinition = Condition<LeafConditionDefinition>;
export type ChoiceDefinition = Static<typeof ChoiceSchema>;
export type QuestionDefinition = Omit<Static<typeof QuestionSchema>, 'mandatory' | 'visibleIf'> & {
  mandatory: boolean;
  visibleIf?: ConditionDefinition;
};
export type SectionDefinition = Omit<Static<typeof SectionSchema>, 'questions' | 'visibleIf'> & {
  questions: QuestionDefinition[];
  visibleIf?: ConditionDefinition;
};
export type DimDefinition = Omit<Static<typeof DimSchema>, 'source'> & { source: DimSource };
export type FormSettings = Required<Static<typeof SettingsSchema>>;
/** A validated authoring file with defaults applied (settings, dims, mandatory, dim source). */
export type FormDefinition = Omit<Static<typeof FormDefinitionSchema>, 'settings' | 'dims' | 'sections'> & {
  settings: FormSettings;
  dims: DimDefinition[];
  sections: SectionDefinition[];
};
/** What the form record holds outside `content`; needed to export a stored form. */
export type FormMeta = Pick<FormDefinition, 'slug' | 'name' | 'description' | 'settings'>;

/** Option, matrix row or matrix column as stored. */
export interface ResolvedChoice {
  id: string;
  key: string;
  name: string;
  /** zero-based position in the file */
  order: number;
}
export type ResolvedOption = ResolvedChoice;

export interface ResolvedLeafCondition {
  questionId: string;
  /** choice questions: option ids; other types: the value itself */
  equals?: Operand;
  notEquals?: Operand;
  in?: Operand[];
  gte?: number | string;
  lte?: number | string;
  answered?: boolean;
}
export type ResolvedCondition = Condition<ResolvedLeafCondition>;

export interface ResolvedQuestion {
  id: string;
  key: string;
  name: string;
  type: QuestionType;
  mandatory: boolean;
  description?: string;
  /** choice types only */
  options?: ResolvedChoice[];
  /** MATRIX only */
  rows?: ResolvedChoice[];
  columns?: ResolvedChoice[];
  /** NUMBER (optional), RANGE (required); STAR: max always set */
  min?: number;
  max?: number;
  /** NUMBER (optional); RANGE: always set */
  step?: number;
  visibleIf?: ResolvedCondition;
}

export interface ResolvedSection {
  id: string;
  key: string;
  name: string;
  description?: string;
  visibleIf?: ResolvedCondition;
  questions: ResolvedQuestion[];
}

export interface ResolvedDim {
  key: string;
  kind: DimKind;
  source: DimSource;
  /** source "answer" only: the question whose answer gives the value */
  questionId?: string;
}

/** The stored `content` of a form. */
export interface ResolvedForm {
  version: 1;
  dims: ResolvedDim[];
  sections: ResolvedSection[];
}

/** Answers keyed by question id. */
export type Answers = Record<string, unknown>;

export type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

// ---------------------------------------------------------------------------------------------
// Small shared helpers
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldError(path: string, code: string, message: string): FieldError {
  return { path, code, message };
}

function childPath(base: string, segment: string | number): string {
  if (typeof segment === 'number') return `${base}[${segment}]`;
  return base === '' ? segment : `${base}.${segment}`;
}

/** Drops undefined properties so stored and exported JSON carry no empty keys. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function isCombinator<L>(condition: Condition<L>): condition is { all: Condition<L>[] } | { any: Condition<L>[] } {
  return isRecord(condition) && ('all' in condition || 'any' in condition);
}

function mapCondition<A, B>(condition: Condition<A>, mapLeaf: (leaf: A) => B): Condition<B> {
  if (isCombinator(condition)) {
    return 'all' in condition
      ? { all: condition.all.map((c) => mapCondition(c, mapLeaf)) }
      : { any: condition.any.map((c) => mapCondition(c, mapLeaf)) };
  }
  return mapLeaf(condition as A);
}

function questionsOf(form: { sections: { questions: ResolvedQuestion[] }[] }): ResolvedQuestion[] {
  return form.sections.flatMap((section) => section.questions);
}

// ---------------------------------------------------------------------------------------------
// TypeBox errors → FieldError
// ---------------------------------------------------------------------------------------------

/** All structural errors of `value` against `schema`, one per path, with paths under `base`. */
export function schemaErrors(schema: TSchema, value: unknown, base = ''): FieldError[] {
  const byPath = new Map<string, FieldError>();
  for (const error of Value.Errors(schema, value)) {
    const path = pointerToPath(base, error.path);
    if (!byPath.has(path)) byPath.set(path, describeSchemaError(path, error));
  }
  return [...byPath.values()];
}

function pointerToPath(base: string, pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>((path, segment) => childPath(path, /^\d+$/.test(segment) ? Number(segment) : segment), base);
}

function describeSchemaError(path: string, error: ValueError): FieldError {
  const [code, message] = codeAndMessage(error, error.schema as Json);
  return fieldError(path, code, `${subjectOf(path)} ${message}.`);
}

/** The last property name of a path, for messages: `sections[0].name` → `name`. */
function subjectOf(path: string): string {
  if (path === '') return 'The value';
  if (path.endsWith(']')) return 'This item';
  return path.slice(path.lastIndexOf('.') + 1);
}

function codeAndMessage(error: ValueError, schema: Json): [string, string] {
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return ['required', 'is required'];
    case ValueErrorType.ObjectAdditionalProperties:
      return ['unknown_property', 'is not a known property here'];
    case ValueErrorType.String:
    case ValueErrorType.Number:
    case ValueErrorType.Integer:
    case ValueErrorType.Boolean:
    case ValueErrorType.Array:
    case ValueErrorType.Object:
      return ['invalid_type', `must be ${article(String(schema.type))}`];
    case ValueErrorType.StringPattern:
      return [String(schema.errorCode ?? 'invalid_format'), String(schema.errorMessage ?? `must match ${schema.pattern}`)];
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? ['required', 'must not be empty'] : ['too_short', `must be at least ${schema.minLength} characters`];
    case ValueErrorType.StringMaxLength:
      return ['too_long', `must be at most ${schema.maxLength} characters`];
    case ValueErrorType.ArrayMinItems:
      return ['too_few', `must have at least ${schema.minItems} item(s)`];
    case ValueErrorType.ArrayMaxItems:
      return ['too_many', `must have at most ${schema.maxItems} items`];
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return ['out_of_range', `must be at least ${schema.minimum}`];
    case ValueErrorType.NumberExclusiveMinimum:
      return ['out_of_range', `must be greater than ${schema.exclusiveMinimum}`];
    case ValueErrorType.Literal:
      return ['invalid_value', `must be ${JSON.stringify(schema.const)}`];
    case ValueErrorType.Union:
      return ['invalid_value', describeUnion(schema)];
    default:
      return ['invalid_value', error.message.toLowerCase()];
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeUnion(schema: Json): string {
  const members = (schema.anyOf as Json[]) ?? [];
  if (members.every((member) => 'const' in member)) {
    return `must be one of ${members.map((member) => String(member.const)).join(', ')}`;
  }
  return `must be ${members.map((member) => article(String(member.type))).join(' or ')}`;
}

// ---------------------------------------------------------------------------------------------
// validateFormDefinition
// ---------------------------------------------------------------------------------------------

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
    ...dimErrors(form.dims, questionsByKey),
  ];
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
      fieldError(childPath(item.path, 'key'), 'duplicate_key', `The ${what} key "${item.key}" is already used at ${first.get(item.key!)!.path}.`),
    );
}

function explicitIdFormatErrors(items: ItemView[]): FieldError[] {
  const seen = new Map<string, string>();
  return items.flatMap((item) => {
    if (item.id === undefined) return [];
    const path = childPath(item.path, 'id');
    if (!isUuid(item.id)) return [fieldError(path, 'invalid_id', 'id must be a UUID given by the service; omit it for new items.')];
    const earlier = seen.get(item.id);
    if (earlier) return [fieldError(path, 'duplicate_id', `The id is already used at ${earlier}.`)];
    seen.set(item.id, item.path);
    return [];
  });
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
  ];
}

function typedPropertyErrors(question: QuestionView, type: QuestionType): FieldError[] {
  const rules = TYPE_PROPERTIES[type];
  return TYPED_PROPERTIES.flatMap((property) => {
    const value = question.raw[property];
    const path = childPath(question.path, property);
    const rule = rules[property];
    if (rule === undefined) {
      return value === undefined ? [] : [fieldError(path, 'not_allowed', `${property} is not allowed on ${type} questions.`)];
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
    return [fieldError(maxPath, 'out_of_range', `max of a STAR question must be a whole number from 1 to ${STAR_MAX_LIMIT}.`)];
  }
  if (typeof min === 'number' && typeof max === 'number' && !(min < max)) {
    return [fieldError(maxPath, 'invalid_range', `max (${max}) must be greater than min (${min}).`)];
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
    return [fieldError(path, 'too_deep', `Conditions may nest at most ${MAX_CONDITION_DEPTH} levels.`)];
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
    return [fieldError(questionPath, 'unknown_question', `No question has the key "${leaf.question}".`)];
  }
  if (target.position >= context.before) {
    return [fieldError(questionPath, 'forward_reference', `Question "${leaf.question}" does not come before this condition; a condition may only depend on earlier questions.`)];
  }
  const operators = CONDITION_OPERATORS.filter((operator) => leaf[operator] !== undefined);
  if (operators.length === 0) {
    return [fieldError(path, 'invalid_condition', `A condition needs at least one of ${CONDITION_OPERATORS.join(', ')}.`)];
  }
  if (target.type === undefined) return [];
  return operators.flatMap((operator) => operatorErrors(operator, leaf, childPath(path, operator), target, target.type!));
}

function operatorErrors(operator: ConditionOperator, leaf: LeafConditionDefinition, path: string, target: QuestionView, type: QuestionType): FieldError[] {
  if (operator === 'answered') return [];
  const kind = OPERAND_KIND[type];
  const orderedOnly = operator === 'gte' || operator === 'lte';
  if (kind === 'none' || (orderedOnly && !ORDERED_OPERANDS.has(kind))) {
    return [fieldError(path, 'invalid_operator', `${operator} cannot be used on ${type} question "${target.key}".`)];
  }
  if (operator === 'in') return leaf.in!.flatMap((value, index) => operandErrors(value, childPath(path, index), target, kind));
  return operandErrors(leaf[operator]!, path, target, kind);
}

function operandErrors(value: Operand, path: string, target: QuestionView, kind: Exclude<OperandKind, 'none'>): FieldError[] {
  if (kind === 'option') {
    if (typeof value !== 'string') return [fieldError(path, 'invalid_value', `Must be an option key of question "${target.key}".`)];
    const known = target.options.some((option) => option.key === value);
    return known ? [] : [fieldError(path, 'unknown_option', `Question "${target.key}" has no option with the key "${value}".`)];
  }
  const rule = SCALAR_OPERAND_RULES[kind];
  return rule.test(value) ? [] : [fieldError(path, 'invalid_value', `Must be ${rule.expected} to compare with question "${target.key}".`)];
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
    return [fieldError(childPath(path, 'source'), 'invalid_source', `A ${kind} dim can come from ${DIM_SOURCES_BY_KIND[kind].join(', ')}, not ${source}.`)];
  }
  if (source !== 'answer') {
    return dim.question === undefined ? [] : [fieldError(questionPath, 'not_allowed', 'question is only allowed when source is "answer".')];
  }
  if (typeof dim.question !== 'string') {
    return dim.question === undefined ? [fieldError(questionPath, 'required', 'A dim with source "answer" needs the key of its question.')] : [];
  }
  const question = questionsByKey.get(dim.question);
  if (question === undefined) return [fieldError(questionPath, 'unknown_question', `No question has the key "${dim.question}".`)];
  if (question.type !== undefined && !DIM_ANSWER_TYPES[kind].includes(question.type)) {
    return [fieldError(questionPath, 'incompatible_question', `A ${kind} dim needs a ${DIM_ANSWER_TYPES[kind].join(' or ')} question, not ${question.type}.`)];
  }
  return [];
}

/** The unit dim gives the response its org unit (orgUnitId, orgPath), so there can be only one. */
function extraUnitDimErrors(views: { raw: Json; path: string }[]): FieldError[] {
  return views
    .filter((view) => view.raw.kind === 'unit')
    .slice(1)
    .map((view) => fieldError(childPath(view.path, 'kind'), 'multiple_unit_dims', 'A form may declare at most one unit dim.'));
}

// ---------------------------------------------------------------------------------------------
// Ids: stable across imports by key
// ---------------------------------------------------------------------------------------------

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
    errors.push(fieldError(childPath(path, 'id'), 'id_mismatch', `This id does not belong to the ${what} with this key in the current version of the form; omit it to get a new id.`));
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
    return compact({ id, key: section.key, name: section.name, description: section.description, visibleIf, questions });
  });
  const dims = def.dims.map((dim): ResolvedDim =>
    compact({ key: dim.key, kind: dim.kind, source: dim.source, questionId: dim.question && resolvedByKey.get(dim.question)!.id }),
  );
  return { version: 1, dims, sections };
}

function resolveQuestion(question: QuestionDefinition, ids: PreviousIds, newId: () => string, visibleIf: ResolvedCondition | undefined): ResolvedQuestion {
  const resolveChoices = (list: ChoiceList) =>
    question[list]?.map((choice, order): ResolvedChoice => ({
      id: ids.choice(question.key, list, choice.key) ?? newId(),
      key: choice.key,
      name: choice.name,
      order,
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

function resolveLeaf(leaf: LeafConditionDefinition, questionsByKey: Map<string, ResolvedQuestion>): ResolvedLeafCondition {
  const { question: key, ...operators } = leaf;
  const question = questionsByKey.get(key)!;
  return { questionId: question.id, ...mapOperands(operators, question, (option) => option.key, (option) => option.id) };
}

/** Rewrites option operands of a choice question between keys and ids; other operands pass. */
function mapOperands<T extends Partial<Record<ConditionOperator, unknown>>>(
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

// ---------------------------------------------------------------------------------------------
// Export back to the authoring format
// ---------------------------------------------------------------------------------------------

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
    settings: { ...meta.settings },
    dims: resolved.dims.map((dim) =>
      compact({ key: dim.key, kind: dim.kind, source: dim.source, question: dim.questionId && byId.get(dim.questionId)?.key }),
    ),
    sections: resolved.sections.map((section) =>
      compact({
        id: section.id,
        key: section.key,
        name: section.name,
        description: section.description,
        visibleIf: exportCondition(section.visibleIf),
        questions: section.questions.map((question) => exportQuestion(question, exportCondition(question.visibleIf))),
      }),
    ),
  });
}

function exportQuestion(question: ResolvedQuestion, visibleIf: ConditionDefinition | undefined): QuestionDefinition {
  const exportChoices = (choices: ResolvedChoice[] | undefined) => choices?.map(({ id, key, name }) => ({ id, key, name }));
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

// ---------------------------------------------------------------------------------------------
// Public API shape (GET /forms/{id} content) and counts
// ---------------------------------------------------------------------------------------------

const PublicChoiceSchema = Type.Object({ id: Type.String(), name: Type.String(), order: Type.Integer() });

/** `content` of the form detail. options: choice types only; rows and columns: MATRIX only. */
export const PublicFormContentSchema = Type.Object({
  sections: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      questions: Type.Array(
        Type.Object({
          id: Type.String(),
          name: Type.String(),
          type: literalUnion(QUESTION_TYPES),
          mandatory: Type.Boolean(),
          options: Type.Optional(Type.Array(PublicChoiceSchema)),
          rows: Type.Optional(Type.Array(PublicChoiceSchema)),
          columns: Type.Optional(Type.Array(PublicChoiceSchema)),
        }),
      ),
    }),
  ),
});
export type PublicFormContent = Static<typeof PublicFormContentSchema>;

export function toPublicContent(resolved: ResolvedForm): PublicFormContent {
  const publicChoices = (choices: ResolvedChoice[] | undefined) => choices?.map(({ id, name, order }) => ({ id, name, order }));
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
          options: publicChoices(q.options),
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

// ---------------------------------------------------------------------------------------------
// Conditional visibility
// ---------------------------------------------------------------------------------------------

/** Answered means a value that says something: not blank text, not an empty list or object. */
export function isAnswered(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/**
 * Evaluates a stored condition against answers keyed by question id. A missing condition is
 * visible. The answers must already exclude hidden questions (visibleQuestionIds does that).
 */
export function isVisible(condition: ResolvedCondition | undefined, answers: Answers): boolean {
  if (condition === undefined) return true;
  if ('all' in condition) return condition.all.every((c) => isVisible(c, answers));
  if ('any' in condition) return condition.any.some((c) => isVisible(c, answers));
  const value = Object.hasOwn(answers, condition.questionId) ? answers[condition.questionId] : undefined;
  return leafHolds(condition, value);
}

/** Every operator present must hold. notEquals is the exact negation of equals (true when unanswered). */
function leafHolds(leaf: ResolvedLeafCondition, value: unknown): boolean {
  const checks: boolean[] = [];
  if (leaf.equals !== undefined) checks.push(answerMatches(value, leaf.equals));
  if (leaf.notEquals !== undefined) checks.push(!answerMatches(value, leaf.notEquals));
  if (leaf.in !== undefined) checks.push(leaf.in.some((operand) => answerMatches(value, operand)));
  if (leaf.gte !== undefined) checks.push((compareScalars(value, leaf.gte) ?? -1) >= 0);
  if (leaf.lte !== undefined) checks.push((compareScalars(value, leaf.lte) ?? 1) <= 0);
  if (leaf.answered !== undefined) checks.push(isAnswered(value) === leaf.answered);
  return checks.every(Boolean);
}

/** A multiple-choice answer matches when the option is among the chosen ones. */
function answerMatches(value: unknown, operand: Operand): boolean {
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => v === operand || compareScalars(v, operand) === 0);
}

/**
 * Orders two scalar values, or null when they are not comparable. Numbers numerically;
 * timestamps by instant; other strings by code units, which is right for YYYY-MM-DD and HH:MM.
 */
function compareScalars(a: unknown, b: unknown): number | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  const instantA = parseIsoDateTime(a);
  const instantB = parseIsoDateTime(b);
  if (instantA !== null && instantB !== null) return Math.sign(instantA - instantB);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Ids of the questions shown for these answers, in document order. Walking in order works
 * because conditions only look back; a hidden question's answer is dropped before later
 * conditions see it, so hiding cascades down a chain.
 */
export function visibleQuestionIds(resolved: ResolvedForm, answers: Answers): Set<string> {
  const visible = new Set<string>();
  const shownAnswers: Answers = {};
  for (const section of resolved.sections) {
    if (!isVisible(section.visibleIf, shownAnswers)) continue;
    for (const question of section.questions) {
      if (!isVisible(question.visibleIf, shownAnswers)) continue;
      visible.add(question.id);
      if (Object.hasOwn(answers, question.id)) shownAnswers[question.id] = answers[question.id];
    }
  }
  return visible;
}

// ---------------------------------------------------------------------------------------------
// Answer validation
// ---------------------------------------------------------------------------------------------

/** What a per-type check knows: the question, where its answer is, and whether the response is final. */
interface AnswerContext {
  question: ResolvedQuestion;
  path: string;
  complete: boolean;
}
type AnswerCheck = (value: unknown, context: AnswerContext) => FieldError[];

export interface ValidateAnswersOptions {
  /** a saved draft: skip the mandatory checks, which only apply when the response is finalized */
  partial?: boolean;
}

/**
 * Checks the answers of a response: unknown and hidden questions are rejected, every value must
 * fit its type and, unless partial, visible mandatory questions must be answered.
 */
export function validateAnswers(resolved: ResolvedForm, answers: Answers, options: ValidateAnswersOptions = {}): FieldError[] {
  if (!isRecord(answers)) return [fieldError('answers', 'invalid_type', 'answers must be an object keyed by question id.')];
  const questions = questionsOf(resolved);
  const known = new Set(questions.map((q) => q.id));
  const visible = visibleQuestionIds(resolved, answers);
  return [
    ...Object.keys(answers)
      .filter((id) => !known.has(id))
      .map((id) => fieldError(answerPath(id), 'unknown_question', 'The form has no question with this id.')),
    ...questions.flatMap((question) => questionAnswerErrors(question, answers, visible.has(question.id), !options.partial)),
  ];
}

function answerPath(questionId: string): string {
  return childPath('answers', questionId);
}

function questionAnswerErrors(question: ResolvedQuestion, answers: Answers, visible: boolean, complete: boolean): FieldError[] {
  const path = answerPath(question.id);
  const present = Object.hasOwn(answers, question.id);
  if (!visible) return present ? [fieldError(path, 'hidden_question', 'This question is hidden by the other answers and must not be answered.')] : [];
  const value = present ? answers[question.id] : undefined;
  const errors = present ? ANSWER_CHECKS[question.type](value, { question, path, complete }) : [];
  if (errors.length === 0 && complete && question.mandatory && !isAnswered(value)) {
    return [fieldError(path, 'required', `Question "${question.name}" must be answered.`)];
  }
  return errors;
}

function checkText(value: unknown, { path }: AnswerContext): FieldError[] {
  if (typeof value !== 'string') return [fieldError(path, 'invalid_type', 'The answer must be a string.')];
  return value.length > MAX_TEXT_ANSWER_LENGTH
    ? [fieldError(path, 'too_long', `The answer must be at most ${MAX_TEXT_ANSWER_LENGTH} characters.`)]
    : [];
}

function formattedString(test: (text: string) => boolean, expected: string): AnswerCheck {
  return (value, { path }) => {
    if (typeof value !== 'string') return [fieldError(path, 'invalid_type', `The answer must be ${expected}.`)];
    return test(value) ? [] : [fieldError(path, 'invalid_format', `The answer must be ${expected}.`)];
  };
}

interface NumberBounds {
  min?: number;
  max?: number;
  /** grid from min (or 0): the value must be min + k·step */
  step?: number;
}

function numberBounds(question: ResolvedQuestion): NumberBounds {
  switch (question.type) {
    case 'NPS':
      return { min: 0, max: 10, step: 1 };
    case 'STAR':
      return { min: 1, max: question.max ?? STAR_DEFAULT_MAX, step: 1 };
    default:
      return { min: question.min, max: question.max, step: question.step };
  }
}

function checkNumber(value: unknown, { question, path }: AnswerContext): FieldError[] {
  if (typeof value !== 'number' || !Number.isFinite(value)) return [fieldError(path, 'invalid_type', 'The answer must be a number.')];
  const { min, max, step } = numberBounds(question);
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    return [fieldError(path, 'out_of_range', `The answer must be between ${min ?? '-∞'} and ${max ?? '∞'}.`)];
  }
  if (step !== undefined && !isOnGrid(value - (min ?? 0), step)) {
    return [fieldError(path, 'invalid_step', `The answer must be ${min ?? 0} plus a multiple of ${step}.`)];
  }
  return [];
}

/** Tolerant multiple test: 0.3 is on the 0.1 grid although 0.3 / 0.1 is not exactly 3. */
function isOnGrid(offset: number, step: number): boolean {
  const steps = offset / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9 * Math.max(1, Math.abs(steps));
}

function checkBoolean(value: unknown, { path }: AnswerContext): FieldError[] {
  return typeof value === 'boolean' ? [] : [fieldError(path, 'invalid_type', 'The answer must be a boolean.')];
}

function checkSingleChoice(value: unknown, { question, path }: AnswerContext): FieldError[] {
  if (typeof value !== 'string') return [fieldError(path, 'invalid_type', 'The answer must be an option id.')];
  return unknownOptionErrors([value], question, () => path);
}

function unknownOptionErrors(values: string[], question: ResolvedQuestion, pathOf: (index: number) => string): FieldError[] {
  const ids = new Set((question.options ?? []).map((option) => option.id));
  return values.flatMap((value, index) =>
    ids.has(value) ? [] : [fieldError(pathOf(index), 'unknown_option', `"${value}" is not an option id of this question.`)],
  );
}

/** Array of distinct option ids (CHECKBOX, RANKING). */
function checkOptionList(value: unknown, { question, path }: AnswerContext): FieldError[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    return [fieldError(path, 'invalid_type', 'The answer must be an array of option ids.')];
  }
  const unknown = unknownOptionErrors(value, question, (index) => childPath(path, index));
  if (unknown.length > 0) return unknown;
  const duplicate = value.findIndex((v, index) => value.indexOf(v) !== index);
  return duplicate === -1 ? [] : [fieldError(childPath(path, duplicate), 'duplicate_option', 'An option may appear only once.')];
}

/** A ranking orders every option: partial rankings would skew the mean rank of the rest. */
function checkRanking(value: unknown, context: AnswerContext): FieldError[] {
  const errors = checkOptionList(value, context);
  if (errors.length > 0 || !isAnswered(value)) return errors;
  const optionCount = context.question.options?.length ?? 0;
  return (value as string[]).length === optionCount
    ? []
    : [fieldError(context.path, 'incomplete_ranking', `A ranking must order all ${optionCount} options.`)];
}

/** Object row id → column id; a mandatory matrix of a finalized response needs every row. */
function checkMatrix(value: unknown, { question, path, complete }: AnswerContext): FieldError[] {
  if (!isRecord(value)) return [fieldError(path, 'invalid_type', 'The answer must be an object mapping row ids to column ids.')];
  const rows = question.rows ?? [];
  const columnIds = new Set((question.columns ?? []).map((column) => column.id));
  const rowIds = new Set(rows.map((row) => row.id));
  const cellErrors = Object.entries(value).flatMap(([rowId, columnId]) => {
    const cellPath = childPath(path, rowId);
    if (!rowIds.has(rowId)) return [fieldError(cellPath, 'unknown_row', `"${rowId}" is not a row id of this question.`)];
    if (typeof columnId !== 'string' || !columnIds.has(columnId)) {
      return [fieldError(cellPath, 'unknown_column', 'The value must be a column id of this question.')];
    }
    return [];
  });
  if (cellErrors.length > 0 || !(complete && question.mandatory)) return cellErrors;
  return rows
    .filter((row) => !Object.hasOwn(value, row.id))
    .map((row) => fieldError(childPath(path, row.id), 'required', `Row "${row.name}" must be answered.`));
}

const FileAnswerSchema = Type.Array(
  Type.Object(
    {
      fileId: Type.String({ minLength: 1, maxLength: 200 }),
      name: Type.String({ minLength: 1, maxLength: 255 }),
      size: Type.Integer({ minimum: 0 }),
      mime: Type.String({ minLength: 1, maxLength: 255 }),
    },
    { additionalProperties: false },
  ),
  { maxItems: 20 },
);

function checkFiles(value: unknown, { path }: AnswerContext): FieldError[] {
  return schemaErrors(FileAnswerSchema, value, path);
}

const ANSWER_CHECKS: Record<QuestionType, AnswerCheck> = {
  TEXT: checkText,
  PARAGRAPH: checkText,
  DATE: formattedString(isIsoDate, 'a date as YYYY-MM-DD'),
  TIME: formattedString(isTime, 'a time as HH:MM'),
  DATETIME: formattedString(isIsoDateTime, 'an ISO 8601 timestamp with a zone'),
  NUMBER: checkNumber,
  RANGE: checkNumber,
  NPS: checkNumber,
  STAR: checkNumber,
  BOOLEAN: checkBoolean,
  RADIO: checkSingleChoice,
  SELECT: checkSingleChoice,
  CHECKBOX: checkOptionList,
  RANKING: checkRanking,
  MATRIX: checkMatrix,
  FILE: checkFiles,
};
