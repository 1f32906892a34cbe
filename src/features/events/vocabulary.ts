// The event types of the spec (Events), by family, without their payload schemas: the CLI's
// option lists and anything that only names types load this, not TypeBox (catalog.ts has the schemas).

export const RESPONSE_EVENT_TYPES = ['response.created'] as const;
// invite.expired is the eighth invite type, named by the contract decisions.
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
export const FORM_EVENT_TYPES = ['form.goal_reached'] as const;
export const ENROLLMENT_EVENT_TYPES = ['enrollment.dropped'] as const;
export const TREATMENT_EVENT_TYPES = ['treatment.opened', 'treatment.overdue', 'treatment.closed'] as const;
export const PING_EVENT_TYPES = ['ping'] as const;

export const EVENT_TYPES = [
  ...RESPONSE_EVENT_TYPES,
  ...INVITE_EVENT_TYPES,
  ...FORM_EVENT_TYPES,
  ...ENROLLMENT_EVENT_TYPES,
  ...TREATMENT_EVENT_TYPES,
  ...PING_EVENT_TYPES,
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
