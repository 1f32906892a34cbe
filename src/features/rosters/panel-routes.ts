import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CursorMeta, ok, OffsetMeta, successEnvelope } from '../../platform/app/envelope.js';
import { okJsonBody } from '../../platform/app/json-body.js';
import { CURSOR_DEFAULT_LIMIT, cursorMeta } from '../../platform/app/pagination.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import type { Tx } from '../../platform/db/database.js';
import { importRoster, type ImportOutcome, type ImportRosterInput } from './import-roster.js';
import { importRosterFiles } from './import-roster-files.js';
import { listClasses } from './list-classes.js';
import { listClassGroups } from './list-class-groups.js';
import { listEnrollments } from './list-enrollments.js';
import { ClassItem, EnrollmentStatusBody, EnrollmentStatusResult, PageQuery, PanelImportResult, ROSTER_FILES_BODY_LIMIT, RosterFilesBody } from './panel-schemas.js';
import { ListEnrollmentsQuery, ROSTER_IMPORT_BODY_LIMIT } from './routes.js';
import { ClassGroup, Enrollment, RosterImport } from './schemas.js';
import { setEnrollmentStatus } from './set-enrollment-status.js';

const DEFAULT_LIMIT = 20;
const offsetMeta = (page: number, limit: number, total: number) => ({ page, limit, total, totalPages: Math.ceil(total / limit) });
const IMPORT_NOTE =
  'A dry run (dryRun: true) applies nothing: the panel always shows it first. sync refuses with 409 DROP_THRESHOLD_EXCEEDED ' +
  '(details: maxDropRatio and the classes over it) when it would drop more than maxDropRatio of a class, dry run or not. ' +
  'An applied import is audited as roster.imported.';

/** The rosters area (permission rosters): the services of /v1's roster routes and of `quorum roster import` / `quorum enrollment set-status`. */
export async function rosterPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;

  panel.get(
    '/rosters/class-groups',
    {
      config: { permission: 'rosters' },
      schema: {
        operationId: 'listRosterClassGroups',
        summary: 'Class groups, newest first (the API’s list)',
        tags: ['rosters'],
        querystring: PageQuery,
        response: { 200: successEnvelope(Type.Array(Type.Ref(ClassGroup)), Type.Ref(OffsetMeta)), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Querystring: PageQuery }>) => {
      const { page = 1, limit = DEFAULT_LIMIT } = request.query;
      const { items, total } = await listClassGroups(ctx.db, ctx, { companyId: request.panel.companyId, page, limit });
      return ok(items, offsetMeta(page, limit, total));
    },
  );

  panel.get(
    '/rosters/classes',
    {
      config: { permission: 'rosters' },
      schema: {
        operationId: 'listRosterClasses',
        summary: 'Classes by code, with group, course, unit and enrollments by status',
        tags: ['rosters'],
        querystring: PageQuery,
        response: { 200: successEnvelope(Type.Array(ClassItem), Type.Ref(OffsetMeta)), ...panelErrorResponses() },
      },
    },
    async (request: FastifyRequest<{ Querystring: PageQuery }>) => {
      const { page = 1, limit = DEFAULT_LIMIT, classGroupId } = request.query;
      const { items, total } = await listClasses(ctx.db, ctx, { companyId: request.panel.companyId, page, limit, classGroupId });
      return ok(items, offsetMeta(page, limit, total));
    },
  );

  panel.get(
    '/rosters/enrollments',
    {
      config: { permission: 'rosters' },
      schema: {
        operationId: 'listRosterEnrollments',
        summary: 'Enrollments, oldest change first, with the API’s filters (status, changedSince, classCode, classGroupId, orgUnitId)',
        tags: ['rosters'],
        querystring: ListEnrollmentsQuery,
        response: { 200: successEnvelope(Type.Array(Type.Ref(Enrollment)), Type.Ref(CursorMeta)), ...panelErrorResponses('INVALID_CURSOR') },
      },
    },
    async (request: FastifyRequest<{ Querystring: Static<typeof ListEnrollmentsQuery> }>, reply) => {
      const { limit = CURSOR_DEFAULT_LIMIT, ...filters } = request.query;
      const page = await listEnrollments(ctx.db, { cursorSecret: ctx.config.secretKey }, { companyId: request.panel.companyId, limit, ...filters });
      return reply.type('application/json').send(okJsonBody(page.items, cursorMeta(page, limit)));
    },
  );

  /** Runs an import; an applied one is audited in its transaction. */
  const runImport = (request: FastifyRequest, dryRun: boolean, run: (tx: Tx) => Promise<ImportOutcome & { unrecognised?: string[]; ignored?: string[] }>) =>
    ctx.db.transaction(async (tx) => {
      const outcome = await run(tx);
      if (!dryRun) {
        const { errors, ...counts } = outcome.result;
        await auditPanelAct(tx, ctx, { request, action: 'roster.imported', details: { ...counts, errors: errors.length, events: outcome.events } });
      }
      return ok({ result: outcome.result, byClass: outcome.byClass, events: outcome.events, unrecognised: outcome.unrecognised ?? [], ignored: outcome.ignored ?? [] });
    });

  panel.post(
    '/rosters/import',
    {
      config: { permission: 'rosters' },
      bodyLimit: ROSTER_IMPORT_BODY_LIMIT,
      schema: {
        operationId: 'importRosterJson',
        summary: 'Import a roster in the API’s JSON shape (POST /v1/enrollments/import)',
        description: IMPORT_NOTE,
        tags: ['rosters'],
        body: Type.Ref(RosterImport),
        response: { 200: successEnvelope(PanelImportResult), ...panelErrorResponses('PAYLOAD_TOO_LARGE', 'DROP_THRESHOLD_EXCEEDED') },
      },
    },
    async (request: FastifyRequest<{ Body: ImportRosterInput }>) =>
      runImport(request, request.body.dryRun ?? false, (tx) => importRoster(tx, ctx, { companyId: request.panel.companyId, ...request.body })),
  );

  panel.post(
    '/rosters/import-files',
    {
      config: { permission: 'rosters' },
      bodyLimit: ROSTER_FILES_BODY_LIMIT,
      schema: {
        operationId: 'importRosterFiles',
        summary: 'Import a roster from uploaded files: the CSVs `quorum roster import DIR` reads, or a OneRoster or Canvas export (format)',
        description: `Files that are no roster of the format (not CSV, no enrollments.csv, no OneRoster manifest.csv) are 400 on files; a delta OneRoster package with mode sync is 400 on mode. ${IMPORT_NOTE}`,
        tags: ['rosters'],
        body: RosterFilesBody,
        response: { 200: successEnvelope(PanelImportResult), ...panelErrorResponses('PAYLOAD_TOO_LARGE', 'DROP_THRESHOLD_EXCEEDED') },
      },
    },
    async (request: FastifyRequest<{ Body: RosterFilesBody }>) =>
      runImport(request, request.body.dryRun ?? false, (tx) => importRosterFiles(tx, ctx, { companyId: request.panel.companyId, ...request.body })),
  );

  panel.post(
    '/rosters/enrollment-status',
    {
      config: { permission: 'rosters' },
      schema: {
        operationId: 'setEnrollmentStatus',
        summary: 'Change one enrollment’s status by hand',
        description:
          'The person (externalId) and class (classCode) must exist (else 404); the enrollment is created when they were not enrolled together. ' +
          'Emits enrollment.dropped on an actual change to dropped; the same status again changes and emits nothing. Audited as enrollment.status_changed on a change.',
        tags: ['rosters'],
        body: EnrollmentStatusBody,
        response: { 200: successEnvelope(EnrollmentStatusResult), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Body: EnrollmentStatusBody }>) =>
      ok(
        await ctx.db.transaction(async (tx) => {
          const { change, events } = await setEnrollmentStatus(tx, ctx, { companyId: request.panel.companyId, ...request.body });
          if (change) await auditPanelAct(tx, ctx, { request, action: 'enrollment.status_changed', details: { ...request.body, fromStatus: change.fromStatus, enrollmentId: change.enrollmentId } });
          return { changed: change !== null, fromStatus: change?.fromStatus ?? null, events };
        }),
      ),
  );
}
