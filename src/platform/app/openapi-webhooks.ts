import { EVENT_DATA_SCHEMAS, EVENT_TYPES, EVENT_VERSION } from '../../features/events/catalog.js';

/**
 * The event catalog as the OpenAPI 3.1 `webhooks` section: one POST per event type, its body the
 * envelope with that type's data schema, so a receiver can generate its handler types.
 */
const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event id, the same on every retry: deduplicate on it.' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt.' },
  { name: 'webhook-signature', description: '`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` with the subscription secret (Standard Webhooks); several, space-separated, while a secret rotates.' },
].map((header) => ({ ...header, in: 'header', required: true, schema: { type: 'string' } }));

/**
 * The schema as published: plain JSON, and open wherever it is closed, because new fields can
 * appear in data without notice and a receiver must not refuse them.
 */
function openSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key, value]) => !(key === 'additionalProperties' && value === false)).map(([key, value]) => [key, openSchema(value)]));
}

function webhookFor(type: (typeof EVENT_TYPES)[number]) {
  const envelope = {
    type: 'object',
    required: ['id', 'type', 'version', 'occurredAt', 'companyId', 'data'],
    properties: {
      id: { type: 'string' },
      type: { const: type },
      version: { const: EVENT_VERSION },
      occurredAt: { type: 'string', format: 'date-time' },
      companyId: { type: 'string' },
      data: openSchema(JSON.parse(JSON.stringify(EVENT_DATA_SCHEMAS[type]))),
    },
  };
  return {
    post: {
      operationId: `event.${type}`.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase()),
      summary: `The ${type} event`,
      tags: ['Events'],
      description: 'POSTed to each enabled subscription that names this type or `*`. Unknown types and fields must be accepted and ignored.',
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: envelope } } },
      responses: {
        '2XX': { description: 'Delivered' },
        '4XX': { description: 'Not delivered: retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed' },
      },
    },
  };
}

export function withWebhooks<T extends object>(document: T): T {
  return { ...document, webhooks: Object.fromEntries(EVENT_TYPES.map((type) => [type, webhookFor(type)])) };
}
