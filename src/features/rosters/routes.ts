import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { CursorMeta, errorResponses, ok, OffsetMeta, successEnvelope } from '../../platform/app/envelope.js';
import { okJsonBody } from '../../platform/app/json-body.js';
import { importRoster, type ImportRosterInput } from './import-roster.js';
import { listClassGroups } from './list-class-groups.js';
import { listEnrollments } from './list-enrollments.js';
import { ClassGroup, Enrollment, RosterImport, RosterImportResult } from './schemas.js';
import { ENROLLMENT_STATUSES } from './table.js';
import { MAX_CODE_LENGTH } from './parse-roster.js';

/** 10 MiB on this route only (contract decisions); every other body stays at the app's 1 MiB. */
export const ROSTER_IMPORT_BODY_LIMIT = 10 * 1024 * 1024;
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const ListEnrollmentsQuery = Type.Object(
  {
    ...cursorQueryFields,
    status: Type.Optional(Type.Union(ENROLLMENT_STATUSES.map((s) => Type.Literal(s)), { description: 'Only enrollments with this status.' })),
    changedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only enrollments whose statusChangedAt is at or after this instant (ISO 8601, inclusive). Keep the time at which your ' +
          'previous scan started (before its first request) and pass it: no change is ever missed. Writes that are in flight when a ' +
          'scan starts are waited for by its first page, and every later write is stamped at or after the time that page is served, ' +
          "so a change committing during a scan is either in it or at/after the next scan's changedSince. The times are the server's " +
          'clock: if yours may run ahead of it, subtract the difference. A change made during a scan may show the enrollment twice.',
      }),
    ),
    classCode: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_CODE_LENGTH, description: "Only the class with this code (the caller's code)." })),
    classGroupId: Type.Optional(Type.String({ pattern: UUID, description: 'Only classes of this class group.' })),
    orgUnitId: Type.Optional(
      Type.String({ pattern: UUID, description: 'Only classes of this unit or of any unit below it (its subtree, by orgPath).' }),
    ),
  },
  { additionalProperties: false },
);

const DEFAULT_PAGE = 1;
const DEFAULT_LIMIT = 20;
const ListClassGroupsQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: DEFAULT_PAGE, description: '1-based page number; a page past the end is empty and still carries the total' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIMIT, description: 'Page size' })),
  },
  { additionalProperties: false },
);

export async function rosterRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ListEnrollmentsQuery> }>(
    '/enrollments',
    {
      config: { scope: 'rosters:read' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listEnrollments',
        tags: ['Rosters'],
        summary: 'Scan enrollments, oldest change first',
        description:
          'Ordered by statusChangedAt asc, then id asc, so a changedSince sync reads the oldest change first. Each row embeds the person ' +
          'and the class. The first page (no cursor) carries meta.total, counted when the scan starts; later pages pass meta.nextCursor ' +
          'as cursor, unchanged, with the same filters (limit may change). A cursor that is unreadable, of another company or used with ' +
          'other filters is 400 INVALID_CURSOR: restart without cursor. page is refused with 400 PAGE_NOT_SUPPORTED. Filters are ANDed. ' +
          'Scope: rosters:read.',
        querystring: ListEnrollmentsQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(Enrollment)), Type.Ref(CursorMeta)), description: 'A page of enrollments' },
          ...errorResponses('FORBIDDEN', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED'),
        },
      },
    },
    async (request, reply) => {
      const { limit = CURSOR_DEFAULT_LIMIT, ...filters } = request.query;
      const page = await listEnrollments(app.ctx.db, { cursorSecret: app.ctx.config.secretKey }, { companyId: request.auth.company.id, limit, ...filters });
      return reply.type('application/json').send(okJsonBody(page.items, cursorMeta(page, limit)));
    },
  );

  app.get<{ Querystring: Static<typeof ListClassGroupsQuery> }>(
    '/class-groups',
    {
      config: { scope: 'rosters:read' },
      schema: {
        operationId: 'listClassGroups',
        tags: ['Rosters'],
        summary: 'List class groups',
        description: "The company's class groups, newest first (createdAt desc, id desc), a page at a time. Scope: rosters:read.",
        querystring: ListClassGroupsQuery,
        response: {
          200: { ...successEnvelope(Type.Array(Type.Ref(ClassGroup)), Type.Ref(OffsetMeta)), description: 'A page of class groups' },
          ...errorResponses('FORBIDDEN', 'VALIDATION_ERROR'),
        },
      },
    },
    async (request) => {
      const { page = DEFAULT_PAGE, limit = DEFAULT_LIMIT } = request.query;
      const { items, total } = await listClassGroups(app.ctx.db, app.ctx, { companyId: request.auth.company.id, page, limit });
      return ok(items, { page, limit, total, totalPages: Math.ceil(total / limit) });
    },
  );

  app.post<{ Body: Static<typeof RosterImport> }>(
    '/enrollments/import',
    {
      config: { scope: 'rosters:write' },
      bodyLimit: ROSTER_IMPORT_BODY_LIMIT,
      schema: {
        operationId: 'importRoster',
        tags: ['Rosters'],
        summary: 'Import a roster: people, class groups, classes and enrollments',
        description:
          'Compared with the stored state: only real differences are written, and re-sending the same situation changes and emits ' +
          'nothing. Valid rows are applied in one transaction; invalid rows (unknown class or person, bad status, a row repeating ' +
          'an earlier one of the same list) are reported in errors with their index and skipped. sync also drops the active ' +
          'enrollments of the listed classes that no row names, unless that would drop more than maxDropRatio of a class: then ' +
          'nothing is applied and the answer is 409 DROP_THRESHOLD_EXCEEDED, details `{ maxDropRatio, classes: [{ classCode, active, ' +
          'dropping, ratio }] }`. Each enrollment that moves from enrolled or completed to dropped emits enrollment.dropped. At most ' +
          '10,000 rows per list and a 10 MiB body (413 PAYLOAD_TOO_LARGE). Scope: rosters:write.',
        body: Type.Ref(RosterImport),
        response: {
          200: { ...successEnvelope(Type.Ref(RosterImportResult)), description: 'What the import did (or, with dryRun, would do)' },
          ...errorResponses('FORBIDDEN', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'DROP_THRESHOLD_EXCEEDED'),
        },
      },
    },
    async (request) => {
      const outcome = await importRoster(app.ctx.db, app.ctx, { companyId: request.auth.company.id, ...request.body as ImportRosterInput });
      return ok(outcome.result);
    },
  );
}
