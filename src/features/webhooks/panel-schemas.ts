import { Type, type Static } from '@sinclair/typebox';
import { cursorQueryFields } from '../../platform/app/pagination.js';
import { MAX_PING_MESSAGE } from './ping-subscription.js';
import { DELIVERY_STATUSES } from './vocabulary.js';

const Instant = (description?: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], description ? { description } : {});

/** A subscription as the panel shows it (create-subscription.ts publicSubscription): never a secret. */
export const PanelWebhook = Type.Object(
  {
    id: Type.String(),
    companyId: Type.String(),
    url: Type.String(),
    types: Type.Array(Type.String(), { description: '["*"]: every event type' }),
    enabled: Type.Boolean(),
    description: Type.String(),
    failingSince: Instant('Start of the current streak of failed attempts; null: the last attempt succeeded'),
    disabledAt: Instant(),
    disabledReason: Type.Union([Type.Literal('operator'), Type.Literal('gone'), Type.Literal('failing'), Type.Null()], {
      description: 'operator: disabled by a person; gone: the receiver answered 410; failing: failed for days',
    }),
    previousSecretExpiresAt: Instant('After a rotation, until when the old secret also signs'),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Webhook subscription' },
);

export const WebhookWithSecret = Type.Object({
  subscription: PanelWebhook,
  secret: Type.String({ description: 'The signing secret, shown this once: afterwards only kept sealed' }),
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ maxLength: 2000, description: 'http(s) URL receiving the signed POSTs' }),
    types: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 100, description: 'Event types, or ["*"] (the default) for all' })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const EditWebhookBody = Type.Object(
  {
    url: Type.Optional(CreateWebhookBody.properties.url),
    types: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 100, description: 'Event types, or ["*"] for all' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type EditWebhookBody = Static<typeof EditWebhookBody>;

// No body at all is a ping with the default text (the platform validates an absent body as null).
export const PingBody = Type.Union([
  Type.Null(),
  Type.Object(
    { message: Type.Optional(Type.String({ maxLength: MAX_PING_MESSAGE, description: "The ping's data.message; blank or absent: a default text" })) },
    { additionalProperties: false },
  ),
]);
export type PingBody = Static<typeof PingBody>;

export const PingResult = Type.Object({ subscriptionId: Type.String(), eventId: Type.String({ description: 'The ping event: filter the delivery log by it' }) });

const Attempt = Type.Object({
  attempt: Type.Integer(),
  startedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when no answer came" }),
  error: Type.Union([Type.String(), Type.Null()]),
  responseBody: Type.Union([Type.String(), Type.Null()], { description: "The start of the receiver's answer" }),
});

export const PanelDelivery = Type.Object(
  {
    id: Type.String(),
    companyId: Type.String(),
    subscriptionId: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    status: Type.Union(DELIVERY_STATUSES.map((status) => Type.Literal(status))),
    attempts: Type.Integer(),
    nextAttemptAt: Instant('When a pending delivery is tried next'),
    leaseUntil: Instant(),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Instant(),
    log: Type.Array(Attempt, { description: 'Every attempt, oldest first' }),
  },
  { title: 'Webhook delivery' },
);

export const DeliveriesQuery = Type.Object(
  {
    subscriptionId: Type.Optional(Type.String()),
    eventId: Type.Optional(Type.String()),
    status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((status) => Type.Literal(status)))),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'default 50' })),
    cursor: cursorQueryFields.cursor,
  },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const ResendResult = Type.Object({ id: Type.String(), resendOf: Type.String(), subscriptionId: Type.String(), eventId: Type.String() });

export const RecoverBody = Type.Object(
  {
    since: Type.String({ format: 'date-time', description: 'Inclusive; events are kept 30 days' }),
    subscriptionId: Type.Optional(Type.String({ description: 'Only this subscription; otherwise every enabled one' })),
  },
  { additionalProperties: false },
);
export type RecoverBody = Static<typeof RecoverBody>;

export const RecoverResult = Type.Object({ queued: Type.Integer(), since: Type.String({ format: 'date-time' }), subscriptionId: Type.Union([Type.String(), Type.Null()]) });

