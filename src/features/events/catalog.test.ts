import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  EVENT_DATA_SCHEMAS,
  EVENT_TYPES,
  INVITE_EVENT_TYPES,
  TREATMENT_EVENT_TYPES,
  enrollmentDroppedData,
  eventEnvelope,
  goalReachedData,
  inviteEventData,
  isEventType,
  pingData,
  responseCreatedData,
  treatmentEventData,
  type EventType,
  type InviteEventInput,
  type ResponseCreatedInput,
  type TreatmentEventInput,
} from './catalog.js';

// Field lists copied from the data tables of the spec (Events), in table order.
const RESPONSE_CREATED_FIELDS = [
  'formId', 'formName', 'formSlug', 'responseId', 'inviteId', 'completedAt', 'respondent', 'answers', 'dims',
  'orgUnitId', 'orgPath', 'orgSource',
];
const INVITE_FIELDS = ['formId', 'formName', 'inviteId', 'status', 'channel', 'batchId', 'respondent', 'failReason'];
const GOAL_REACHED_FIELDS = ['formId', 'formName', 'responseCount', 'goal', 'alertRuleId'];
const ENROLLMENT_DROPPED_FIELDS = [
  'enrollmentId', 'classId', 'personId', 'classCode', 'className', 'externalId', 'name', 'email', 'phone', 'status',
  'previousStatus', 'courseItemId', 'orgUnitId', 'changedAt',
];
const TREATMENT_FIELDS = [
  'treatmentId', 'number', 'formId', 'formName', 'responseId', 'status', 'stepName', 'stepIndex', 'dueAt', 'orgUnitId',
  'orgPath', 'at', 'outcome', 'reason',
];
const PING_FIELDS = ['message'];
const RESPONDENT_FIELDS = ['name', 'email', 'phone', 'externalId'];

const at = new Date('2026-03-01T12:00:00.000Z');
const later = new Date('2026-03-04T18:30:05.123Z');

const responseInput: ResponseCreatedInput = {
  formId: 'f1', formName: 'Course feedback', formSlug: 'course-feedback', responseId: 'r1', inviteId: 'i1',
  completedAt: at, respondent: { name: 'Ana', email: 'ana@example.com', phone: null, externalId: 'S-1' },
  answers: { q1: 5, q2: ['a', 'b'] }, dims: { course: 'c1' }, orgUnitId: 'u2', orgPath: '/u1/u2/', orgSource: 'invite',
};
const inviteInput: InviteEventInput = {
  formId: 'f1', formName: 'Course feedback', inviteId: 'i1', channel: 'email', batchId: 'b1',
  respondent: { name: 'Ana', email: 'ana@example.com', phone: null, externalId: 'S-1' },
};
const treatmentInput: TreatmentEventInput = {
  treatmentId: 't1', number: 42, formId: 'f1', formName: 'Complaints', responseId: 'r1', stepName: 'Call back',
  stepIndex: 0, dueAt: later, orgUnitId: 'u2', orgPath: '/u1/u2/', at,
};

/** One representative payload per type, built the way the services will build them. */
function sampleData(type: EventType): unknown {
  switch (type) {
    case 'response.created':
      return responseCreatedData(responseInput);
    case 'invite.failed':
      return inviteEventData(type, { ...inviteInput, failReason: 'bounced' });
    case 'invite.sent': case 'invite.delivered': case 'invite.opened': case 'invite.started':
    case 'invite.responded': case 'invite.revoked': case 'invite.expired':
      return inviteEventData(type, inviteInput);
    case 'form.goal_reached':
      return goalReachedData({ formId: 'f1', formName: 'Course feedback', responseCount: 100, goal: 100, alertRuleId: 'a1' });
    case 'enrollment.dropped':
      return enrollmentDroppedData({
        enrollmentId: 'e1', classId: 'c1', personId: 'p1', classCode: 'MATH-1', className: 'Math 1', externalId: 'S-1',
        name: 'Ana', email: 'ana@example.com', phone: '+5511999999999', previousStatus: 'enrolled',
        courseItemId: 'ci1', orgUnitId: 'u2', changedAt: at,
      });
    case 'treatment.opened': case 'treatment.overdue':
      return treatmentEventData(type, treatmentInput);
    case 'treatment.closed':
      return treatmentEventData(type, { ...treatmentInput, dueAt: null, outcome: 'other', reason: 'Handled by phone' });
    case 'ping':
      return pingData('Test from the panel');
  }
}

const FIELDS_BY_TYPE: Record<EventType, string[]> = {
  'response.created': RESPONSE_CREATED_FIELDS,
  ...Object.fromEntries(INVITE_EVENT_TYPES.map((type) => [type, INVITE_FIELDS])),
  'form.goal_reached': GOAL_REACHED_FIELDS,
  'enrollment.dropped': ENROLLMENT_DROPPED_FIELDS,
  ...Object.fromEntries(TREATMENT_EVENT_TYPES.map((type) => [type, TREATMENT_FIELDS])),
  ping: PING_FIELDS,
} as Record<EventType, string[]>;

function expectValid(type: EventType, data: unknown): void {
  const errors = [...Value.Errors(EVENT_DATA_SCHEMAS[type], data)].map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

describe('EVENT_TYPES', () => {
  it('is the spec catalog plus invite.expired, eight invite types in all', () => {
    expect([...EVENT_TYPES].sort()).toEqual(
      [
        'response.created', 'invite.sent', 'invite.delivered', 'invite.opened', 'invite.started', 'invite.responded',
        'invite.failed', 'invite.revoked', 'invite.expired', 'form.goal_reached', 'enrollment.dropped',
        'treatment.opened', 'treatment.overdue', 'treatment.closed', 'ping',
      ].sort(),
    );
    expect(EVENT_TYPES.filter((type) => type.startsWith('invite.'))).toHaveLength(8);
    expect(isEventType('invite.expired')).toBe(true);
    expect(isEventType('*')).toBe(false);
  });
});

describe.each(EVENT_TYPES)('%s data', (type) => {
  it('has exactly the fields of the spec table and validates against its schema', () => {
    const data = sampleData(type);
    expect(Object.keys(data as object).sort()).toEqual([...FIELDS_BY_TYPE[type]].sort());
    expectValid(type, data);
  });

  it('is refused by its schema with a field too many or one missing', () => {
    const data = sampleData(type) as Record<string, unknown>;
    expect(Value.Check(EVENT_DATA_SCHEMAS[type], { ...data, extra: 1 })).toBe(false);
    const withoutFirstField = Object.fromEntries(FIELDS_BY_TYPE[type].slice(1).map((key) => [key, data[key]]));
    expect(Value.Check(EVENT_DATA_SCHEMAS[type], withoutFirstField)).toBe(false);
  });
});

describe('respondent', () => {
  it('is normalised to all four keys, null where absent', () => {
    const data = responseCreatedData({ ...responseInput, respondent: { email: 'ana@example.com' } });
    expect(data.respondent).toEqual({ name: null, email: 'ana@example.com', phone: null, externalId: null });
    expect(Object.keys(data.respondent ?? {}).sort()).toEqual([...RESPONDENT_FIELDS].sort());
    expectValid('response.created', data);
  });

  it('is null when there is none, and never picks up foreign keys', () => {
    expect(responseCreatedData({ ...responseInput, respondent: null }).respondent).toBeNull();
    expect(responseCreatedData({ ...responseInput, respondent: undefined }).respondent).toBeNull();
    const leaky = { name: 'Ana', token: 'secret-token' } as { name: string };
    expect(inviteEventData('invite.sent', { ...inviteInput, respondent: leaky }).respondent).toEqual({
      name: 'Ana', email: null, phone: null, externalId: null,
    });
  });
});

describe('response.created', () => {
  it('carries null for a public-link response with no completion, unit or source', () => {
    const data = responseCreatedData({
      ...responseInput, inviteId: null, completedAt: null, respondent: null, dims: {}, orgUnitId: null, orgPath: null,
      orgSource: null,
    });
    expect(data).toMatchObject({ inviteId: null, completedAt: null, respondent: null, dims: {}, orgSource: null });
    expectValid('response.created', data);
  });

  it('writes timestamps as millisecond ISO strings', () => {
    expect(responseCreatedData({ ...responseInput, completedAt: later }).completedAt).toBe('2026-03-04T18:30:05.123Z');
  });
});

describe('invite.* events', () => {
  it('report the stage named by the type', () => {
    for (const type of INVITE_EVENT_TYPES) {
      const data = type === 'invite.failed'
        ? inviteEventData(type, { ...inviteInput, failReason: 'send_failed' })
        : inviteEventData(type, inviteInput);
      expect(data.status).toBe(type.slice('invite.'.length));
    }
    expect(inviteEventData('invite.expired', inviteInput).status).toBe('expired');
  });

  it('carry failReason only on invite.failed', () => {
    expect(inviteEventData('invite.failed', { ...inviteInput, failReason: 'suppressed' }).failReason).toBe('suppressed');
    const resent = inviteEventData('invite.sent', { ...inviteInput, failReason: 'bounced' });
    expect(resent.failReason).toBeNull();
    expectValid('invite.sent', resent);
  });

  it('refuse an invite.failed without a reason', () => {
    // @ts-expect-error failReason is required for invite.failed
    expect(() => inviteEventData('invite.failed', inviteInput)).toThrow(TypeError);
  });

  it('allow a null form name, channel, batch and respondent', () => {
    const data = inviteEventData('invite.revoked', { ...inviteInput, formName: null, channel: null, batchId: null, respondent: null });
    expectValid('invite.revoked', data);
  });

  it('carry the send\'s batch as sendBatchId (extension) beside the invite\'s own batchId, and omit it for an unsent invite', () => {
    const sent = inviteEventData('invite.sent', { ...inviteInput, batchId: null, sendBatchId: 's1' });
    expect(sent).toMatchObject({ batchId: null, sendBatchId: 's1' });
    expectValid('invite.sent', sent);
    expect(Object.keys(inviteEventData('invite.revoked', { ...inviteInput, sendBatchId: null })).sort()).toEqual([...INVITE_FIELDS].sort());
  });

  it('do not copy fields the spec does not list', () => {
    const row = { ...inviteInput, token: 'secret-token', url: 'http://localhost:3000/i/secret-token' };
    expect(Object.keys(inviteEventData('invite.opened', row))).not.toContain('token');
  });

  it('schemas pin the stage and the failReason per type', () => {
    const sent = inviteEventData('invite.sent', inviteInput);
    expect(Value.Check(EVENT_DATA_SCHEMAS['invite.delivered'], sent)).toBe(false);
    expect(Value.Check(EVENT_DATA_SCHEMAS['invite.sent'], { ...sent, failReason: 'bounced' })).toBe(false);
    const failed = inviteEventData('invite.failed', { ...inviteInput, failReason: 'bounced' });
    expect(Value.Check(EVENT_DATA_SCHEMAS['invite.failed'], { ...failed, failReason: null })).toBe(false);
  });
});

describe('form.goal_reached', () => {
  it('allows a null alert rule', () => {
    expectValid('form.goal_reached', goalReachedData({ formId: 'f', formName: 'F', responseCount: 10, goal: 10, alertRuleId: null }));
  });
});

describe('enrollment.dropped', () => {
  it('fixes status to dropped and nulls absent person data', () => {
    const data = enrollmentDroppedData({
      enrollmentId: 'e1', classId: 'c1', personId: 'p1', classCode: 'MATH-1', className: 'Math 1', previousStatus: null,
      courseItemId: 'ci1', orgUnitId: 'u1', changedAt: later,
    });
    expect(data).toMatchObject({
      status: 'dropped', externalId: null, name: null, email: null, phone: null, previousStatus: null,
      changedAt: '2026-03-04T18:30:05.123Z',
    });
    expectValid('enrollment.dropped', data);
  });
});

describe('treatment.* events', () => {
  it('are open until closed and carry outcome and reason only when closing', () => {
    const closingInput = { ...treatmentInput, outcome: 'unfounded' as const, reason: 'Closed early' };
    for (const type of ['treatment.opened', 'treatment.overdue'] as const) {
      const data = treatmentEventData(type, closingInput);
      expect(data).toMatchObject({ status: 'open', outcome: null, reason: null });
      expectValid(type, data);
    }
    const closed = treatmentEventData('treatment.closed', closingInput);
    expect(closed).toMatchObject({ status: 'closed', outcome: 'unfounded', reason: 'Closed early' });
    expectValid('treatment.closed', closed);
  });

  it('keep a null outcome on closing: no outcome recorded, never resolved', () => {
    const closed = treatmentEventData('treatment.closed', { ...treatmentInput, dueAt: null });
    expect(closed).toMatchObject({ outcome: null, reason: null, dueAt: null });
    expectValid('treatment.closed', closed);
  });

  it('allow a chained case without a response, step name, unit or path', () => {
    const data = treatmentEventData('treatment.overdue', {
      ...treatmentInput, responseId: null, stepName: null, orgUnitId: null, orgPath: null, stepIndex: 2,
    });
    expect(data).toMatchObject({ responseId: null, stepIndex: 2, dueAt: '2026-03-04T18:30:05.123Z', at: '2026-03-01T12:00:00.000Z' });
    expectValid('treatment.overdue', data);
  });

  it('schemas refuse an outcome on a non-closing event', () => {
    const opened = treatmentEventData('treatment.opened', treatmentInput);
    expect(Value.Check(EVENT_DATA_SCHEMAS['treatment.opened'], { ...opened, outcome: 'resolved' })).toBe(false);
    expect(Value.Check(EVENT_DATA_SCHEMAS['treatment.closed'], opened)).toBe(false);
  });
});

describe('eventEnvelope', () => {
  it('wraps data with version 1 and a millisecond ISO occurredAt', () => {
    const envelope = eventEnvelope({ id: 'ev1', type: 'ping', occurredAt: later, companyId: 'co1', data: pingData('hi') });
    expect(envelope).toEqual({
      id: 'ev1', type: 'ping', version: 1, occurredAt: '2026-03-04T18:30:05.123Z', companyId: 'co1', data: { message: 'hi' },
    });
    expect(Object.keys(envelope)).toEqual(['id', 'type', 'version', 'occurredAt', 'companyId', 'data']);
  });
});
