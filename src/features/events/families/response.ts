import { Type, type Static } from '@sinclair/typebox';
import { closed, isoOrNull, Nullable, NullableString, OneOf, Timestamp } from '../../../lib/schema-pieces.js';
import { ORG_SOURCES, RespondentSchema, respondentData, type OrgSource, type RespondentInput } from '../respondent.js';


export const ResponseCreatedDataSchema = Type.Object(
  {
    formId: Type.String(),
    formName: Type.String(),
    formSlug: Type.String(),
    responseId: Type.String(),
    inviteId: NullableString,
    completedAt: Nullable(Timestamp),
    respondent: RespondentSchema,
    answers: Type.Record(Type.String(), Type.Unknown()),
    dims: Type.Record(Type.String(), Type.String()),
    orgUnitId: NullableString,
    orgPath: NullableString,
    orgSource: Nullable(OneOf(ORG_SOURCES)),
  },
  closed,
);
export type ResponseCreatedData = Static<typeof ResponseCreatedDataSchema>;

export const RESPONSE_EVENT_SCHEMAS = { 'response.created': ResponseCreatedDataSchema };
export interface ResponseEventData {
  'response.created': ResponseCreatedData;
}

export interface ResponseCreatedInput {
  formId: string;
  formName: string;
  formSlug: string;
  responseId: string;
  /** null when the response came through the public link. */
  inviteId: string | null;
  completedAt: Date | null;
  respondent?: RespondentInput | null;
  answers: Record<string, unknown>;
  dims: Record<string, string>;
  orgUnitId: string | null;
  orgPath: string | null;
  orgSource: OrgSource | null;
}

export function responseCreatedData(input: ResponseCreatedInput): ResponseCreatedData {
  return {
    formId: input.formId,
    formName: input.formName,
    formSlug: input.formSlug,
    responseId: input.responseId,
    inviteId: input.inviteId,
    completedAt: isoOrNull(input.completedAt),
    respondent: respondentData(input.respondent),
    answers: input.answers,
    dims: input.dims,
    orgUnitId: input.orgUnitId,
    orgPath: input.orgPath,
    orgSource: input.orgSource,
  };
}
