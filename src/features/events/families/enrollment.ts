import { Type, type Static } from '@sinclair/typebox';
import { closed, Nullable, NullableString, OneOf, Timestamp } from '../../../lib/schema-pieces.js';


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
export type EnrollmentDroppedData = Static<typeof EnrollmentDroppedDataSchema>;

export const ENROLLMENT_EVENT_SCHEMAS = { 'enrollment.dropped': EnrollmentDroppedDataSchema };
export interface EnrollmentEventData {
  'enrollment.dropped': EnrollmentDroppedData;
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
