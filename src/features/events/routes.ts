import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { CursorMeta, errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { EVENT_TYPES, type EventType } from './catalog.js';
import { listEvents } from './list-events.js';
import { Event } from './schemas.js';

const ListEventsQuery = Type.Object(
  {
    ...cursorQueryFields,
    type: Type.Optional(Type.Unsafe<EventType>({ type: 'string', enum: [...EVENT_TYPES], description: 'Only events of this type.' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Only events that occurred at or after this ISO 8601 time (inclusive).' })),
  },
  { additionalProperties: false },
);

export async function eventRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ListEventsQuery> }>(
    '/events',
    {
      config: { scope: 'events:read' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: "Scan the company's recent events (extension)",
        description:
          'The events of the last 30 days, newest first (occurredAt desc, id desc), as the envelopes the webhooks carried: a receiver ' +
          'compares them with what it got to reconcile what it missed. Cursor form: the first page (no cursor) carries meta.total; ' +
          'later pages pass meta.nextCursor as cursor with the same filters. A cursor that is unreadable, of another company or used ' +
          'with other filters is 400 INVALID_CURSOR: restart without cursor. page is refused with 400 PAGE_NOT_SUPPORTED. Scope: events:read.',
        querystring: ListEventsQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(Event)), Type.Ref(CursorMeta)), description: 'A page of events' },
          ...errorResponses('FORBIDDEN', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED'),
        },
      },
    },
    async (request) => {
      const { cursor, limit = CURSOR_DEFAULT_LIMIT, type, since } = request.query;
      // The replica may lag: this is a reconciliation read, newest first, and an event a moment old shows on the
      // next first page; the keyset over older events is the same on the replica.
      const page = await listEvents(app.ctx.readDb, { clock: app.ctx.clock, cursorSecret: app.ctx.config.secretKey }, {
        companyId: request.auth.company.id,
        limit,
        cursor,
        type,
        since,
      });
      return ok(page.items, cursorMeta(page, limit));
    },
  );
}

