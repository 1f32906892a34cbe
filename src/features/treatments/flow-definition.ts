import { Type, type Static } from '@sinclair/typebox';
import { validationError, type FieldError } from '../../lib/errors.js';
import { childPath, fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { resolveConditionOnForm, storedFormConditionErrors, type ConditionDefinition, type ResolvedCondition, type ResolvedForm } from '../forms/index.js';
import { isRecord } from '../forms/index.js';
import { MAX_WORKING_DAYS } from './working-days.js';

/** The flow file (contract decisions, "Treatments"); conditions are checked like a form's visibleIf. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' });
const WorkingDays = Type.Integer({ minimum: 1, maximum: MAX_WORKING_DAYS });

export const FlowStepSchema = Type.Object(
  {
    name: Text(200),
    /** A person's name or e-mail, or a role. */
    responsible: Text(200),
    dueInWorkingDays: WorkingDays,
  },
  { additionalProperties: false },
);
export type FlowStep = Static<typeof FlowStepSchema>;

/** Either a date after closing, or a later response of the same respondent to a named form. */
const CheckSchema = Type.Union([
  Type.Object({ afterWorkingDays: WorkingDays, failsWhen: Type.Optional(Type.Unknown()) }, { additionalProperties: false }),
  Type.Object({ form: Type.String({ minLength: 1, maxLength: 200 }), failsWhen: Type.Unknown() }, { additionalProperties: false }),
]);

export const FlowFileSchema = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$', errorMessage: 'must be 1 to 64 letters, digits or . _ : -, starting with a letter or digit' }),
    name: Text(200),
    when: Type.Unknown(),
    steps: Type.Array(FlowStepSchema, { minItems: 1, maxItems: 20 }),
    effectivenessCheck: Type.Optional(CheckSchema),
  },
  { additionalProperties: false },
);
export type FlowFile = Static<typeof FlowFileSchema>;

/**
 * Stored check: `date` fails when, that many working days after a resolved close, the respondent
 * has answered the case's form again with answers satisfying `failsWhen` (default: the flow's
 * `when`); `response` fails when the respondent's next response to the named form satisfies
 * `failsWhen`. A response that opened its own case of the flow is already handled: no chain.
 */
export type EffectivenessCheck =
  | { kind: 'date'; afterWorkingDays: number; failsWhen: ResolvedCondition }
  | { kind: 'response'; formId: string; failsWhen: ResolvedCondition };

/** What a flow stores: conditions pointed at the forms' ids, its steps and its check. */
export interface FlowDefinition {
  when: ResolvedCondition;
  steps: FlowStep[];
  effectivenessCheck?: EffectivenessCheck;
}

/** The form a response-kind check names, as the caller found it (null: no such form in the company). */
export type CheckFormLookup = (formIdOrSlug: string) => Promise<{ id: string; content: ResolvedForm } | null>;

async function checkOf(file: FlowFile, form: ResolvedForm, when: ResolvedCondition, findForm: CheckFormLookup, errors: FieldError[]): Promise<EffectivenessCheck | undefined> {
  const check = file.effectivenessCheck;
  if (check === undefined) return undefined;
  if ('afterWorkingDays' in check) {
    if (check.failsWhen === undefined) return { kind: 'date', afterWorkingDays: check.afterWorkingDays, failsWhen: when };
    const conditionErrors = storedFormConditionErrors(check.failsWhen, form, 'effectivenessCheck.failsWhen');
    errors.push(...conditionErrors);
    if (conditionErrors.length > 0) return undefined;
    return { kind: 'date', afterWorkingDays: check.afterWorkingDays, failsWhen: resolveConditionOnForm(check.failsWhen as ConditionDefinition, form) };
  }
  const checkForm = await findForm(check.form);
  if (!checkForm) {
    errors.push(fieldError('effectivenessCheck.form', 'unknown_reference', `No form "${check.form}" in this company.`));
    return undefined;
  }
  const conditionErrors = storedFormConditionErrors(check.failsWhen, checkForm.content, 'effectivenessCheck.failsWhen');
  errors.push(...conditionErrors);
  if (conditionErrors.length > 0) return undefined;
  return { kind: 'response', formId: checkForm.id, failsWhen: resolveConditionOnForm(check.failsWhen as ConditionDefinition, checkForm.content) };
}

/** The flow file checked against the stored form it belongs to; VALIDATION_ERROR lists every fault. */
export async function parseFlowFile(input: unknown, form: ResolvedForm, findForm: CheckFormLookup) {
  const errors = schemaErrors(FlowFileSchema, input);
  const file = input as FlowFile;
  // The condition is checked even when other fields are wrong, so one pass reports every fault.
  if (isRecord(input) && input.when !== undefined) errors.push(...storedFormConditionErrors(file.when, form, childPath('', 'when')));
  if (errors.length > 0) throw validationError(errors, 'The flow file is invalid.');
  const when = resolveConditionOnForm(file.when as ConditionDefinition, form);
  const effectivenessCheck = await checkOf(file, form, when, findForm, errors);
  if (errors.length > 0) throw validationError(errors, 'The flow file is invalid.');
  const steps = file.steps.map((s) => ({ name: s.name, responsible: s.responsible, dueInWorkingDays: s.dueInWorkingDays }));
  const definition: FlowDefinition = { when, steps };
  if (effectivenessCheck) definition.effectivenessCheck = effectivenessCheck;
  return { key: file.key, name: file.name, definition };
}
