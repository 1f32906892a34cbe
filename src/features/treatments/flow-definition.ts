import { Type, type Static } from '@sinclair/typebox';
import { validationError } from '../../lib/errors.js';
import { childPath, schemaErrors } from '../../lib/field-errors.js';
import { resolveConditionOnForm, storedFormConditionErrors, type ConditionDefinition, type ResolvedCondition, type ResolvedForm } from '../forms/definition/index.js';
import { MAX_WORKING_DAYS } from './working-days.js';

/** The flow file (contract decisions, "Treatments"); `when` is checked like a form's visibleIf. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S', errorCode: 'required', errorMessage: 'must not be blank' });

export const FlowStepSchema = Type.Object(
  {
    name: Text(200),
    /** A person's name or e-mail, or a role. */
    responsible: Text(200),
    dueInWorkingDays: Type.Integer({ minimum: 1, maximum: MAX_WORKING_DAYS }),
  },
  { additionalProperties: false },
);
export type FlowStep = Static<typeof FlowStepSchema>;

export const FlowFileSchema = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$', errorMessage: 'must be 1 to 64 letters, digits or . _ : -, starting with a letter or digit' }),
    name: Text(200),
    when: Type.Unknown(),
    steps: Type.Array(FlowStepSchema, { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type FlowFile = Static<typeof FlowFileSchema>;

/** What a flow stores: the condition pointed at the form's ids, and its steps. */
export interface FlowDefinition {
  when: ResolvedCondition;
  steps: FlowStep[];
}

/** The flow file checked against the stored form it belongs to; VALIDATION_ERROR lists every fault. */
export function parseFlowFile(input: unknown, form: ResolvedForm): { key: string; name: string; definition: FlowDefinition } {
  const errors = schemaErrors(FlowFileSchema, input);
  const file = input as FlowFile;
  if (errors.every((e) => e.path !== 'when') && typeof input === 'object' && input !== null && 'when' in input) {
    errors.push(...storedFormConditionErrors(file.when, form, childPath('', 'when')));
  }
  if (errors.length > 0) throw validationError(errors, 'The flow file is invalid.');
  const steps = file.steps.map((s) => ({ name: s.name, responsible: s.responsible, dueInWorkingDays: s.dueInWorkingDays }));
  return { key: file.key, name: file.name, definition: { when: resolveConditionOnForm(file.when as ConditionDefinition, form), steps } };
}
