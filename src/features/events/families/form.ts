import { Type, type Static } from '@sinclair/typebox';
import { closed, NullableString } from '../../../lib/schema-pieces.js';


export const GoalReachedDataSchema = Type.Object(
  {
    formId: Type.String(),
    formName: Type.String(),
    responseCount: Type.Integer({ minimum: 0 }),
    goal: Type.Integer({ minimum: 0 }),
    alertRuleId: NullableString,
  },
  closed,
);
export type GoalReachedData = Static<typeof GoalReachedDataSchema>;

export const FORM_EVENT_SCHEMAS = { 'form.goal_reached': GoalReachedDataSchema };
export interface FormEventData {
  'form.goal_reached': GoalReachedData;
}

export interface GoalReachedInput {
  formId: string;
  formName: string;
  /** The count at the crossing, not the count when the event is read. */
  responseCount: number;
  goal: number;
  alertRuleId: string | null;
}

export function goalReachedData(input: GoalReachedInput): GoalReachedData {
  return {
    formId: input.formId,
    formName: input.formName,
    responseCount: input.responseCount,
    goal: input.goal,
    alertRuleId: input.alertRuleId,
  };
}
