import { Type } from '@sinclair/typebox';
import { Nullable, NullableString, OneOf, Timestamp } from '../../lib/schema-pieces.js';
import { TREATMENT_OUTCOMES } from '../events/index.js';
import { TREATMENT_ACTIONS, TREATMENT_STATUSES } from './table.js';

/** The case as the read routes show it (published in the OpenAPI document). */
const caseFields = {
  id: Type.String(),
  number: Type.Integer({ minimum: 1, description: 'Case number within the company, gapless' }),
  formId: Type.String(),
  formName: Type.String(),
  flowKey: Type.String({ description: 'Key of the flow that opened it' }),
  responseId: Nullable(Type.String({ description: 'null on a case chained after a failed effectiveness check' })),
  chainedFromId: Nullable(Type.String({ description: 'The earlier case whose effectiveness check failed' })),
  status: OneOf(TREATMENT_STATUSES),
  stepIndex: Type.Integer({ minimum: 0 }),
  stepName: Type.String(),
  responsible: Type.String({ description: "The current step's responsible: a person's name or e-mail, or a role" }),
  dueAt: Nullable(Timestamp),
  overdue: Type.Boolean({ description: 'The current step passed its deadline (treatment.overdue was emitted)' }),
  outcome: Nullable(OneOf(TREATMENT_OUTCOMES)),
  reason: NullableString,
  orgUnitId: NullableString,
  orgPath: NullableString,
  openedAt: Timestamp,
  closedAt: Nullable(Timestamp),
  steps: Type.Array(Type.Object({ name: Type.String(), responsible: Type.String(), dueInWorkingDays: Type.Integer({ minimum: 1 }) })),
};

export const Treatment = Type.Object(caseFields, { $id: 'Treatment', description: 'A follow-up case; it never carries answers' });
export const TreatmentWithHistory = Type.Object(
  {
    ...caseFields,
    history: Type.Array(
      Type.Object({ action: OneOf(TREATMENT_ACTIONS), stepIndex: Type.Integer({ minimum: 0 }), outcome: Nullable(OneOf(TREATMENT_OUTCOMES)), reason: NullableString, at: Timestamp }),
      { description: 'What happened to the case, oldest first' },
    ),
  },
  { $id: 'TreatmentWithHistory' },
);

export const treatmentSchemas = [Treatment, TreatmentWithHistory];
