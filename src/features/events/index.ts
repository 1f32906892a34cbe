/** The events feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export {
  EARLY_OUTCOMES, EVENT_TYPES, TREATMENT_OUTCOMES, enrollmentDroppedData, eventEnvelope, inviteEventData,
  isEventType, pingData, responseCreatedData, treatmentEventData, type EnrollmentDroppedInput,
  type EventEnvelope, type EventType, type FailReason, type InviteEventType,
  type TreatmentEventType, type TreatmentOutcome,
} from './catalog.js';
export {
  buildEvent, emitEvent, emitEvents, storeEvent, storeEvents, storeEventsFrom, type EmitDeps,
} from './emit-event.js';
export { type EventConsumer } from './event-consumer.js';
export {
  ORG_SOURCES, RespondentSchema, respondentData, type OrgSource, type Respondent, type RespondentInput,
} from './respondent.js';
export { goalReachedData } from './families/form.js';
export { listInviteEvents, type InviteEventItem } from './list-invite-events.js';
