import { Type } from '@sinclair/typebox';

export const Event = Type.Object(
  {
    id: Type.String({ description: 'Event id; the webhook-id header of its deliveries' }),
    type: Type.String({ description: 'A catalog type; new types can appear without notice' }),
    version: Type.Integer({ description: '1 for all current types' }),
    occurredAt: Type.String({ format: 'date-time' }),
    companyId: Type.String(),
    data: Type.Object({}, { additionalProperties: true, description: 'Depends on type (see the event catalog); new fields can appear' }),
  },
  { $id: 'Event', description: 'The webhook envelope, exactly as it was delivered' },
);

export const eventSchemas = [Event];
