import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { PanelCursorMeta, panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { listAudit } from './list-audit.js';

const AuditQuery = Type.Object(
  {
    ...cursorQueryFields,
    action: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_.]{0,63}$', description: 'An action (`member.removed`), or a family ending in a dot (`member.`)' })),
    actor: Type.Optional(Type.String({ format: 'uuid', description: 'Only acts of this user' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Only records at or after this instant' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Only records before this instant' })),
  },
  { additionalProperties: false },
);

const AuditEntry = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    action: Type.String({ description: 'What: `session.signed_in`, `member.removed`, `key.created`, ...' }),
    actor: Type.Object({ userId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) }, { description: 'Who (the address they gave, for a failed sign-in)' }),
    details: Type.Object({}, { additionalProperties: true, description: 'What changed; never a secret' }),
    ip: Type.Union([Type.String(), Type.Null()], { description: 'From where' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'AuditEntry' },
);

/** The company's audit log (shared design: `settings`; owners hold it). */
export async function auditPanelRoutes(panel: FastifyInstance): Promise<void> {
  const { ctx } = panel;
  panel.get<{ Querystring: Static<typeof AuditQuery> }>(
    '/audit',
    {
      config: { permission: 'settings' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listAudit', summary: "The company's audit log, newest first",
        description:
          'Cursor-paged like the /v1 cursor routes: pass meta.nextCursor as cursor with the same filters; a cursor of another ' +
          'company or other filters is 400 INVALID_CURSOR. Filters are ANDed.',
        tags: ['audit'],
        querystring: AuditQuery,
        response: { 200: successEnvelope(Type.Array(AuditEntry), PanelCursorMeta), ...panelErrorResponses('INVALID_CURSOR', 'PAGE_NOT_SUPPORTED') },
      },
    },
    async (request) => {
      const { limit = CURSOR_DEFAULT_LIMIT, ...filters } = request.query;
      const page = await listAudit(ctx.db, { cursorSecret: ctx.config.secretKey }, { companyId: request.panel.companyId, limit, ...filters });
      return ok(page.items, cursorMeta(page, limit));
    },
  );
}
