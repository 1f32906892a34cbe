/**
 * Schema validators' faults as field errors: Ajv (route schemas) and TypeBox (service inputs, form
 * files, answers) report the same fault with the same code of field-errors.ts's vocabulary.
 */
import type { TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import type { FieldError } from './errors.js';
import { fieldError, pointerToPath, type FieldErrorCode } from './field-errors.js';

/** One fault as both validators describe it: the JSON Schema keyword, its bound and the schema. */
interface Fault {
  keyword: string;
  limit?: unknown;
  schema: Record<string, unknown>;
}

function codeAndMessage({ keyword, limit, schema }: Fault): [FieldErrorCode, string] {
  switch (keyword) {
    case 'required':
    case 'minProperties':
      return ['required', 'is required'];
    case 'additionalProperties':
      return ['unknown_field', 'is not a known property here'];
    case 'type':
      return ['invalid_type', `must be ${typeName(limit)}`];
    // an empty text or list where one is needed is missing, not "short"
    case 'minLength':
      return Number(limit) <= 1 ? ['required', 'must not be empty'] : ['too_short', `must be at least ${limit} characters`];
    case 'maxLength':
      return ['too_long', `must be at most ${limit} characters`];
    case 'minItems':
      return Number(limit) <= 1 ? ['required', 'must not be empty'] : ['too_short', `must have at least ${limit} items`];
    case 'maxItems':
      return ['too_long', `must have at most ${limit} items`];
    case 'minimum':
      return ['too_small', `must be at least ${limit}`];
    case 'exclusiveMinimum':
      return ['too_small', `must be greater than ${limit}`];
    case 'maximum':
      return ['too_large', `must be at most ${limit}`];
    case 'exclusiveMaximum':
      return ['too_large', `must be less than ${limit}`];
    case 'uniqueItems':
      return ['not_unique', 'must not repeat items'];
    case 'pattern':
      return [(schema.errorCode as FieldErrorCode | undefined) ?? 'invalid_format', String(schema.errorMessage ?? `must match ${limit}`)];
    case 'format':
      return ['invalid_format', `must be a ${limit}`];
    case 'const':
      return ['invalid_value', `must be ${JSON.stringify(limit)}`];
    case 'enum':
      return ['invalid_value', `must be one of ${(limit as unknown[]).join(', ')}`];
    case 'anyOf':
      return ['invalid_value', describeUnion(schema)];
    default:
      return ['invalid_value', 'is not an accepted value'];
  }
}

function typeName(type: unknown): string {
  const name = Array.isArray(type) ? type.join(' or ') : String(type);
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function describeUnion(schema: Record<string, unknown>): string {
  const members = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [];
  if (members.length === 0) return 'is not an accepted value';
  if (members.every((member) => 'const' in member)) {
    return `must be one of ${members.map((member) => String(member.const)).join(', ')}`;
  }
  return `must be ${members.map((member) => typeName(member.type)).join(' or ')}`;
}

/** `The value`, or the last property of the path: `sections[0].name` → `name`; items are `This item`. */
function subjectOf(path: string): string {
  if (path === '') return 'The value';
  if (path.endsWith(']')) return 'This item';
  return path.slice(path.lastIndexOf('.') + 1);
}

function describe(path: string, fault: Fault): FieldError {
  const [code, message] = codeAndMessage(fault);
  return fieldError(path, code, `${subjectOf(path)} ${message}.`);
}

// --- TypeBox ---------------------------------------------------------------------------------

const TYPEBOX_KEYWORDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'required',
  [ValueErrorType.ObjectMinProperties]: 'minProperties',
  [ValueErrorType.ObjectAdditionalProperties]: 'additionalProperties',
  [ValueErrorType.String]: 'type',
  [ValueErrorType.Number]: 'type',
  [ValueErrorType.Integer]: 'type',
  [ValueErrorType.Boolean]: 'type',
  [ValueErrorType.Array]: 'type',
  [ValueErrorType.Object]: 'type',
  [ValueErrorType.Null]: 'type',
  [ValueErrorType.StringMinLength]: 'minLength',
  [ValueErrorType.StringMaxLength]: 'maxLength',
  [ValueErrorType.ArrayMinItems]: 'minItems',
  [ValueErrorType.ArrayMaxItems]: 'maxItems',
  [ValueErrorType.ArrayUniqueItems]: 'uniqueItems',
  [ValueErrorType.NumberMinimum]: 'minimum',
  [ValueErrorType.IntegerMinimum]: 'minimum',
  [ValueErrorType.NumberExclusiveMinimum]: 'exclusiveMinimum',
  [ValueErrorType.IntegerExclusiveMinimum]: 'exclusiveMinimum',
  [ValueErrorType.NumberMaximum]: 'maximum',
  [ValueErrorType.IntegerMaximum]: 'maximum',
  [ValueErrorType.NumberExclusiveMaximum]: 'exclusiveMaximum',
  [ValueErrorType.IntegerExclusiveMaximum]: 'exclusiveMaximum',
  [ValueErrorType.StringPattern]: 'pattern',
  [ValueErrorType.StringFormat]: 'format',
  [ValueErrorType.Literal]: 'const',
  [ValueErrorType.Union]: 'anyOf',
};

function typeboxFault(error: ValueError): Fault {
  const schema = error.schema as unknown as Record<string, unknown>;
  const keyword = TYPEBOX_KEYWORDS[error.type] ?? 'unknown';
  const limit = keyword === 'type' ? schema.type : keyword === 'unknown' ? undefined : schema[keyword];
  return { keyword, limit, schema };
}

/**
 * One error per path: the first, except that a union's own error replaces those of its
 * branches (Ajv reports each failed branch, e.g. `must be "course"`, before the union).
 */
function firstPerPath(errors: Iterable<[string, Fault]>): FieldError[] {
  const byPath = new Map<string, FieldError>();
  for (const [path, fault] of errors) if (!byPath.has(path) || fault.keyword === 'anyOf') byPath.set(path, describe(path, fault));
  return [...byPath.values()];
}

/**
 * All structural errors of `value` against a TypeBox schema, the first per path, with paths
 * under `base`. Custom `errorCode` / `errorMessage` options on a schema word its pattern errors.
 */
export function schemaErrors(schema: TSchema, value: unknown, base = ''): FieldError[] {
  return firstPerPath([...Value.Errors(schema, value)].flatMap(givenValueErrors).map((error) => [pointerToPath(error.path, base), typeboxFault(error)]));
}

/**
 * A value given where null or one other shape is allowed is judged as that shape: its own errors
 * (`note must be at most 3 characters`), not the union's "must be null or an object".
 */
function givenValueErrors(error: ValueError): ValueError[] {
  if (error.type !== ValueErrorType.Union || error.value === null) return [error];
  const members = ((error.schema as { anyOf?: { type?: unknown }[] }).anyOf ?? []);
  const others = members.flatMap((member, index) => (member.type === 'null' ? [] : [index]));
  if (members.length !== 2 || others.length !== 1) return [error];
  const inner = [...(error.errors[others[0]] ?? [])].flatMap(givenValueErrors);
  return inner.length > 0 ? inner : [error];
}

// --- Ajv -------------------------------------------------------------------------------------

/** The parts of an Ajv error object the mapper reads. */
export interface AjvIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

/** Ajv's parameter holding the keyword's bound, where it is not `limit`. */
const AJV_LIMIT_PARAMS: Record<string, string> = { type: 'type', pattern: 'pattern', format: 'format', const: 'allowedValue', enum: 'allowedValues' };

/**
 * Ajv errors as field errors. The missing or extra property joins the path; an error on the
 * whole input (empty path) is reported at `rootPath` (e.g. `body`, `query`).
 */
export function ajvFieldErrors(issues: readonly AjvIssue[], rootPath: string): FieldError[] {
  return firstPerPath(
    withoutNullBranches(issues).map((issue) => {
      const extra = issue.params.missingProperty ?? issue.params.additionalProperty;
      const tail = typeof extra === 'string' ? `/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}` : '';
      const limit = issue.params[AJV_LIMIT_PARAMS[issue.keyword] ?? 'limit'];
      return [pointerToPath(issue.instancePath + tail) || rootPath, { keyword: issue.keyword, limit, schema: issue.parentSchema ?? {} }];
    }),
  );
}

/**
 * The Ajv side of `givenValueErrors`: a failed union of null and one other shape loses its own
 * error and the null branch's, leaving the other branch's. Branches are told apart by schemaPath
 * (`#/anyOf/0/type`); every branch of a failed union reports at least one error.
 */
function withoutNullBranches(issues: readonly AjvIssue[]): readonly AjvIssue[] {
  const dropped = new Set<AjvIssue>();
  for (const union of issues.filter((issue) => issue.keyword === 'anyOf')) {
    const prefix = `${union.schemaPath}/`;
    const branches = new Map<string, AjvIssue[]>();
    for (const issue of issues) {
      if (!issue.schemaPath.startsWith(prefix)) continue;
      const branch = issue.schemaPath.slice(prefix.length).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), issue]);
    }
    const nullBranch = [...branches.values()].find(
      (errors) => errors.length === 1 && errors[0].keyword === 'type' && errors[0].params.type === 'null' && errors[0].instancePath === union.instancePath,
    );
    if (branches.size !== 2 || !nullBranch) continue;
    dropped.add(union);
    dropped.add(nullBranch[0]);
  }
  return issues.filter((issue) => !dropped.has(issue));
}
