import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CursorMeta, ok, successEnvelope } from '../../platform/app/envelope.js';
import { CURSOR_DEFAULT_LIMIT, cursorMeta } from '../../platform/app/pagination.js';
import { auditPanelAct } from '../../platform/app/panel/panel-audit.js';
import { panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import type { Tx } from '../../platform/db/database.js';
import { advanceCase } from './advance-case.js';
import { caseBoard } from './case-board.js';
import { closeCase } from './close-case.js';
import { listCases } from './list-cases.js';
import { BoardRow, CaseListQuery, CasePage, CaseParams, CloseCaseBody } from './panel-schemas.js';
import { readCasePage } from './read-case-page.js';
import { reopenCase } from './reopen-case.js';
import { Treatment } from './schemas.js';

/**
 * The treatment board and a case's page (permission treatments): the services of /v1's read routes
 * and of `quorum treatment advance|close|reopen`, each act audited in its transaction.
 */
export async function casePanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;

  panel.get(
    '/treatments/board',
    {
      config: { permission: 'treatments' },
      schema: {
        operationId: 'treatmentBoard',
        summary: 'Cases counted by form and flow: open, overdue and closed',
        tags: ['treatments'],
        response: { 200: successEnvelope(Type.Array(BoardRow)), ...panelErrorResponses() },
      },
    },
    async (request) => ok(await caseBoard(ctx.db, ctx, { companyId: request.panel.companyId })),
  );

  panel.get(
    '/treatments',
    {
      config: { permission: 'treatments' },
      schema: {
        operationId: 'listCases',
        summary: 'Cases newest first, filtered by status, overdue, form and flow (the API’s scan)',
        tags: ['treatments'],
        querystring: CaseListQuery,
        response: { 200: successEnvelope(Type.Array(Type.Ref(Treatment)), Type.Ref(CursorMeta)), ...panelErrorResponses('INVALID_CURSOR') },
      },
    },
    async (request: FastifyRequest<{ Querystring: CaseListQuery }>) => {
      const { limit = CURSOR_DEFAULT_LIMIT, ...filters } = request.query;
      const page = await listCases(ctx.db, { cursorSecret: ctx.config.secretKey }, { companyId: request.panel.companyId, limit, ...filters });
      return ok(page.items, cursorMeta(page, limit));
    },
  );

  panel.get(
    '/treatments/:id',
    {
      config: { permission: 'treatments' },
      schema: {
        operationId: 'getCasePage',
        summary: 'A case with its history, its response’s answers and the company’s time zone',
        tags: ['treatments'],
        params: CaseParams,
        response: { 200: successEnvelope(CasePage), ...panelErrorResponses('NOT_FOUND') },
      },
    },
    async (request: FastifyRequest<{ Params: CaseParams }>) => ok(await readCasePage(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );

  type ActRequest = FastifyRequest<{ Params: CaseParams; Body: CloseCaseBody }>;
  interface Act {
    verb: 'advance' | 'close' | 'reopen';
    done: 'advanced' | 'closed' | 'reopened';
    summary: string;
    description: string;
    body?: typeof CloseCaseBody;
    run: (tx: Tx, request: ActRequest, companyId: string) => Promise<{ number: number; stepIndex: number; outcome: string | null }>;
  }

  /** An act on the case and its audit record in one transaction; answers the case page as it now is. */
  const act = ({ verb, done, summary, description, body, run }: Act) =>
    panel.post(
      `/treatments/:id/${verb}`,
      {
        config: { permission: 'treatments' },
        schema: {
          operationId: `${verb}Case`,
          summary,
          description: `${description} Another company's case is 404; a case in the wrong state is 400 VALIDATION_ERROR on status. Audited as treatment.${done}.`,
          tags: ['treatments'],
          params: CaseParams,
          ...(body ? { body } : {}),
          response: { 200: successEnvelope(CasePage), ...panelErrorResponses('NOT_FOUND') },
        },
      },
      async (request: ActRequest) => {
        const { companyId } = request.panel;
        const id = request.params.id;
        await ctx.db.transaction(async (tx) => {
          const row = await run(tx, request, companyId);
          await auditPanelAct(tx, ctx, { request, action: `treatment.${done}`, details: { caseId: id, number: row.number, stepIndex: row.stepIndex, outcome: row.outcome } });
        });
        return ok(await readCasePage(ctx.db, ctx, { companyId, id }));
      },
    );

  act({
    verb: 'advance',
    done: 'advanced',
    summary: 'Fulfil the current step',
    description: 'The next step starts counting now; fulfilling the last step closes the case as resolved (treatment.closed).',
    run: (tx, request, companyId) => advanceCase(tx, ctx, { companyId, id: request.params.id }),
  });
  act({
    verb: 'close',
    done: 'closed',
    summary: 'Close the case early with an outcome and a reason',
    description: 'An outcome other than resolved, and always a reason (refused on those fields otherwise). Emits treatment.closed.',
    body: CloseCaseBody,
    run: (tx, request, companyId) => closeCase(tx, ctx, { companyId, id: request.params.id, ...request.body }),
  });
  act({
    verb: 'reopen',
    done: 'reopened',
    summary: 'Reopen a closed case on the step it was closed on',
    description: 'Recorded in the case history; no event (spec).',
    run: (tx, request, companyId) => reopenCase(tx, ctx, { companyId, id: request.params.id }),
  });
}
