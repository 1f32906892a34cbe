import type { TSchema } from '@sinclair/typebox';
import { ENROLLMENT_EVENT_SCHEMAS, type EnrollmentEventData } from './families/enrollment.js';
import { FORM_EVENT_SCHEMAS, type FormEventData } from './families/form.js';
import { INVITE_EVENT_SCHEMAS, type InviteEventDataByType } from './families/invite.js';
import { PING_EVENT_SCHEMAS, type PingEventData } from './families/ping.js';
import { RESPONSE_EVENT_SCHEMAS, type ResponseEventData } from './families/response.js';
import { TREATMENT_EVENT_SCHEMAS, type TreatmentEventDataByType } from './families/treatment.js';
import type { EventType } from './vocabulary.js';

// The event catalog of the spec (Events): one file per family under families/ (a new family is a
// new file and a line in each list below). Builders copy fields one by one, never spread an
// input: a record passed in (an invite row with its token, say) must not leak into a payload.

export * from './families/response.js';
export * from './families/invite.js';
export * from './families/form.js';
export * from './families/enrollment.js';
export * from './families/treatment.js';
export * from './families/ping.js';
export * from './vocabulary.js';

export type EventDataByType = ResponseEventData & InviteEventDataByType & FormEventData & EnrollmentEventData & TreatmentEventDataByType & PingEventData;

export const EVENT_DATA_SCHEMAS: Readonly<Record<EventType, TSchema>> = {
  ...RESPONSE_EVENT_SCHEMAS,
  ...INVITE_EVENT_SCHEMAS,
  ...FORM_EVENT_SCHEMAS,
  ...ENROLLMENT_EVENT_SCHEMAS,
  ...TREATMENT_EVENT_SCHEMAS,
  ...PING_EVENT_SCHEMAS,
};

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
