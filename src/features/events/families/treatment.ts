import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { closed, isoOrNull, Nullable, NullableString, OneOf, Timestamp } from '../../../lib/schema-pieces.js';
import { schemasByType } from './schemas-by-type.js';

export type TreatmentEventType = (typeof TREATMENT_EVENT_TYPES)[number];

import { TREATMENT_OUTCOMES, type TreatmentOutcome } from './treatment-vocabulary.js';
import { TREATMENT_EVENT_TYPES } from '../vocabulary.js';
export { EARLY_OUTCOMES, TREATMENT_OUTCOMES, type TreatmentOutcome } from './treatment-vocabulary.js';

const treatmentDataSchema = <S extends TSchema, O extends TSchema, R extends TSchema>(status: S, outcome: O, reason: R) =>
  Type.Object(
    {
      treatmentId: Type.String(),
      number: Type.Integer(),
      formId: Type.String(),
      formName: Type.String(),
      responseId: NullableString,
      status,
      stepName: NullableString,
      stepIndex: Type.Integer({ minimum: 0 }),
      dueAt: Nullable(Timestamp),
      orgUnitId: NullableString,
      orgPath: NullableString,
      at: Timestamp,
      outcome,
      reason,
    },
    closed,
  );

/** What any treatment event may carry; each type pins status, outcome and reason. */
export const TreatmentEventDataSchema = treatmentDataSchema(
  OneOf(['open', 'closed'] as const),
  Nullable(OneOf(TREATMENT_OUTCOMES)),
  NullableString,
);
export type TreatmentEventData = Static<typeof TreatmentEventDataSchema>;

const treatmentStatus = (type: TreatmentEventType) => (type === 'treatment.closed' ? 'closed' : 'open');

export const TREATMENT_EVENT_SCHEMAS = schemasByType(TREATMENT_EVENT_TYPES, (type) =>
  type === 'treatment.closed'
    ? treatmentDataSchema(Type.Literal('closed'), Nullable(OneOf(TREATMENT_OUTCOMES)), NullableString)
    : treatmentDataSchema(Type.Literal(treatmentStatus(type)), Type.Null(), Type.Null()),
);
export type TreatmentEventDataByType = Record<TreatmentEventType, TreatmentEventData>;

export interface TreatmentEventInput {
  treatmentId: string;
  number: number;
  formId: string;
  formName: string;
  /** null on a case chained to an earlier one after a failed effectiveness check. */
  responseId: string | null;
  stepName: string | null;
  stepIndex: number;
  dueAt: Date | null;
  orgUnitId: string | null;
  orgPath: string | null;
  at: Date;
  /** Read only for treatment.closed; null there means no outcome recorded, never "resolved". */
  outcome?: TreatmentOutcome | null;
  reason?: string | null;
}

/** status follows the type (closed for treatment.closed, open otherwise); outcome and reason exist only on closing. */
export function treatmentEventData(type: TreatmentEventType, input: TreatmentEventInput): TreatmentEventData {
  const closing = type === 'treatment.closed';
  return {
    treatmentId: input.treatmentId,
    number: input.number,
    formId: input.formId,
    formName: input.formName,
    responseId: input.responseId,
    status: treatmentStatus(type),
    stepName: input.stepName,
    stepIndex: input.stepIndex,
    dueAt: isoOrNull(input.dueAt),
    orgUnitId: input.orgUnitId,
    orgPath: input.orgPath,
    at: input.at.toISOString(),
    outcome: closing ? (input.outcome ?? null) : null,
    reason: closing ? (input.reason ?? null) : null,
  };
}
