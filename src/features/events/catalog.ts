import { Type, type Static, type TSchema } from '@sinclair/typebox';

// The event catalog of the spec (Events) plus invite.expired, the eighth invite type named by the
// contract decisions. Builders copy fields one by one, never spread an input: a record passed in
// (an invite row with its token, say) must not leak into a payload.

export const INVITE_EVENT_TYPES = [
  'invite.sent',
  'invite.delivered',
  'invite.opened',
  'invite.started',
  'invite.responded',
  'invite.failed',
  'invite.revoked',
  'invite.expired',
] as const;

export const TREATMENT_EVENT_TYPES = ['treatment.opened', 'treatment.overdue', 'treatment.closed'] as const;

export const EVENT_TYPES = [
  'response.created',
  ...INVITE_EVENT_TYPES,
  'form.goal_reached',
  'enrollment.dropped',
  ...TREATMENT_EVENT_TYPES,
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
export type InviteEventType = (typeof INVITE_EVENT_TYPES)[number];
export type TreatmentEventType = (typeof TREATMENT_EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------
// Schema pieces

const closed = { additionalProperties: false } as const;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const OneOf = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

/** JSON form of a timestamp in the contract: millisecond ISO 8601 in UTC, as Date#toISOString writes it. */
const Timestamp = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' });
const NullableString = Nullable(Type.String());

const RespondentSchema = Nullable(
  Type.Object({ name: NullableString, email: NullableString, phone: NullableString, externalId: NullableString }, closed),
);

export const ORG_SOURCES = ['invite', 'link', 'class', 'answer', 'none'] as const;
export const INVITE_CHANNELS = ['email', 'whatsapp'] as const;
export const FAIL_REASONS = ['bounced', 'suppressed', 'send_failed'] as const;
export const TREATMENT_OUTCOMES = ['resolved', 'unfounded', 'no-response', 'duplicate', 'other'] as const;

export type OrgSource = (typeof ORG_SOURCES)[number];
export type InviteChannel = (typeof INVITE_CHANNELS)[number];
export type FailReason = (typeof FAIL_REASONS)[number];
export type TreatmentOutcome = (typeof TREATMENT_OUTCOMES)[number];

// ---------------------------------------------------------------------------------------------
// data schemas, one per family (what any event of the family may carry) ...

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

const inviteDataSchema = <S extends TSchema, F extends TSchema>(status: S, failReason: F) =>
  Type.Object(
    {
      formId: Type.String(),
      formName: NullableString,
      inviteId: Type.String(),
      status,
      channel: Nullable(OneOf(INVITE_CHANNELS)),
      batchId: NullableString,
      respondent: RespondentSchema,
      failReason,
    },
    closed,
  );

/** The stage each invite.* event reports: the spec's "stage the invite just moved to" is the one it is named after. */
const inviteStage = <T extends InviteEventType>(type: T) =>
  type.slice('invite.'.length) as T extends `invite.${infer Stage}` ? Stage : never;
export type InviteStage = ReturnType<typeof inviteStage<InviteEventType>>;

export const InviteEventDataSchema = inviteDataSchema(OneOf(INVITE_EVENT_TYPES.map(inviteStage)), Nullable(OneOf(FAIL_REASONS)));

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

export const EnrollmentDroppedDataSchema = Type.Object(
  {
    enrollmentId: Type.String(),
    classId: Type.String(),
    personId: Type.String(),
    classCode: Type.String(),
    className: Type.String(),
    externalId: NullableString,
    name: NullableString,
    email: NullableString,
    phone: NullableString,
    status: Type.Literal('dropped'),
    previousStatus: Nullable(OneOf(['enrolled', 'completed'] as const)),
    courseItemId: Type.String(),
    orgUnitId: Type.String(),
    changedAt: Timestamp,
  },
  closed,
);

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

export const TreatmentEventDataSchema = treatmentDataSchema(
  OneOf(['open', 'closed'] as const),
  Nullable(OneOf(TREATMENT_OUTCOMES)),
  NullableString,
);

export const PingDataSchema = Type.Object({ message: Type.String() }, closed);

export type Respondent = Static<typeof RespondentSchema>;
export type ResponseCreatedData = Static<typeof ResponseCreatedDataSchema>;
export type InviteEventData = Static<typeof InviteEventDataSchema>;
export type GoalReachedData = Static<typeof GoalReachedDataSchema>;
export type EnrollmentDroppedData = Static<typeof EnrollmentDroppedDataSchema>;
export type TreatmentEventData = Static<typeof TreatmentEventDataSchema>;
export type PingData = Static<typeof PingDataSchema>;

// ... and per type, pinning what the type fixes (status, failReason, outcome and reason).

const treatmentStatus = (type: TreatmentEventType) => (type === 'treatment.closed' ? 'closed' : 'open');

const inviteSchemaFor = (type: InviteEventType) =>
  inviteDataSchema(Type.Literal(inviteStage(type)), type === 'invite.failed' ? OneOf(FAIL_REASONS) : Type.Null());

const treatmentSchemaFor = (type: TreatmentEventType) =>
  type === 'treatment.closed'
    ? treatmentDataSchema(Type.Literal('closed'), Nullable(OneOf(TREATMENT_OUTCOMES)), NullableString)
    : treatmentDataSchema(Type.Literal(treatmentStatus(type)), Type.Null(), Type.Null());

function schemasByType<T extends string>(types: readonly T[], schemaFor: (type: T) => TSchema): Record<T, TSchema> {
  return Object.fromEntries(types.map((type) => [type, schemaFor(type)])) as Record<T, TSchema>;
}

export const EVENT_DATA_SCHEMAS: Readonly<Record<EventType, TSchema>> = {
  'response.created': ResponseCreatedDataSchema,
  ...schemasByType(INVITE_EVENT_TYPES, inviteSchemaFor),
  'form.goal_reached': GoalReachedDataSchema,
  'enrollment.dropped': EnrollmentDroppedDataSchema,
  ...schemasByType(TREATMENT_EVENT_TYPES, treatmentSchemaFor),
  ping: PingDataSchema,
};

export type EventDataByType = Record<InviteEventType, InviteEventData> &
  Record<TreatmentEventType, TreatmentEventData> & {
    'response.created': ResponseCreatedData;
    'form.goal_reached': GoalReachedData;
    'enrollment.dropped': EnrollmentDroppedData;
    ping: PingData;
  };

// ---------------------------------------------------------------------------------------------
// Builders

/** Any of the four contact fields may be absent in the source; the payload always has all four. */
export interface RespondentInput {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  externalId?: string | null;
}

export function respondentData(input: RespondentInput | null | undefined): Respondent {
  if (!input) return null;
  return { name: input.name ?? null, email: input.email ?? null, phone: input.phone ?? null, externalId: input.externalId ?? null };
}

const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

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

export interface InviteEventInput {
  formId: string;
  formName: string | null;
  inviteId: string;
  channel: InviteChannel | null;
  /** null when the invite was created individually (POST /forms/{id}/invites). */
  batchId: string | null;
  respondent?: RespondentInput | null;
  /** Read only for invite.failed, where it is required; every other type sends null. */
  failReason?: FailReason | null;
}

type InviteInputFor<T extends InviteEventType> = T extends 'invite.failed'
  ? InviteEventInput & { failReason: FailReason }
  : InviteEventInput;

/** status is the stage named by the type (invite.sent → "sent", invite.expired → "expired"). */
export function inviteEventData<T extends InviteEventType>(type: T, input: InviteInputFor<T>): InviteEventData {
  return {
    formId: input.formId,
    formName: input.formName,
    inviteId: input.inviteId,
    status: inviteStage(type),
    channel: input.channel,
    batchId: input.batchId,
    respondent: respondentData(input.respondent),
    failReason: inviteFailReason(type, input.failReason),
  };
}

function inviteFailReason(type: InviteEventType, failReason: FailReason | null | undefined): FailReason | null {
  if (type !== 'invite.failed') return null;
  // An invite.failed without a reason would break the contract; fail where the bug is.
  if (!failReason) throw new TypeError('invite.failed needs a failReason');
  return failReason;
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

export interface EnrollmentDroppedInput {
  enrollmentId: string;
  classId: string;
  personId: string;
  classCode: string;
  className: string;
  /** The person's identifier in the caller's system and contact data; absent means null. */
  externalId?: string | null;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  previousStatus: 'enrolled' | 'completed' | null;
  courseItemId: string;
  orgUnitId: string;
  changedAt: Date;
}

export function enrollmentDroppedData(input: EnrollmentDroppedInput): EnrollmentDroppedData {
  return {
    enrollmentId: input.enrollmentId,
    classId: input.classId,
    personId: input.personId,
    classCode: input.classCode,
    className: input.className,
    externalId: input.externalId ?? null,
    name: input.name ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    status: 'dropped',
    previousStatus: input.previousStatus,
    courseItemId: input.courseItemId,
    orgUnitId: input.orgUnitId,
    changedAt: input.changedAt.toISOString(),
  };
}

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

export function pingData(message: string): PingData {
  return { message };
}

// ---------------------------------------------------------------------------------------------
// Envelope

export const EVENT_VERSION = 1;

export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  version: typeof EVENT_VERSION;
  occurredAt: string;
  companyId: string;
  data: EventDataByType[T];
}

export interface EventEnvelopeInput<T extends EventType> {
  id: string;
  type: T;
  occurredAt: Date;
  companyId: string;
  data: EventDataByType[T];
}

export function eventEnvelope<T extends EventType>(input: EventEnvelopeInput<T>): EventEnvelope<T> {
  return {
    id: input.id,
    type: input.type,
    version: EVENT_VERSION,
    occurredAt: input.occurredAt.toISOString(),
    companyId: input.companyId,
    data: input.data,
  };
}
