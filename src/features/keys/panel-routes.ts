import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { CURSOR_DEFAULT_LIMIT, cursorMeta, cursorQueryFields, rejectPageParameter } from '../../platform/app/pagination.js';
import { auditedBy } from '../../platform/app/panel/audited-by.js';
import { PanelCursorMeta, panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { parseInstant } from '../../lib/date-time.js';
import { recordAudit } from '../audit/index.js';
import { createKey } from './create-key.js';
import { pageKeys } from './page-keys.js';
import { revokeKey } from './revoke-key.js';
import { CreateKeyBody, CreatedKey, PanelApiKey } from './panel-schemas.js';
import { SCOPES } from './scopes.js';

const IdParams = Type.Object({ id: Type.String({ description: 'API key id' }) });
type IdParams = Static<typeof IdParams>;
const KeysQuery = Type.Object(cursorQueryFields, { additionalProperties: false });
type KeysQuery = Static<typeof KeysQuery>;

/** The panel's API keys (permission integrations): the same services as the CLI, each act audited in its transaction. */
export async function keyPanelRoutes(app: FastifyInstance) {
  const { ctx } = app;

  app.get(
    '/keys/scopes',
    {
      config: { permission: 'integrations' },
      schema: {
        operationId: 'listKeyScopes',
        tags: ['Integrations'],
        summary: 'The scopes a key may be given',
        response: { 200: successEnvelope(Type.Array(Type.String())), ...panelErrorResponses('FORBIDDEN') },
      },
    },
    async () => ok([...SCOPES]),
  );

  app.get<{ Querystring: KeysQuery }>(
    '/keys',
    {
      config: { permission: 'integrations' },
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listKeys',
        tags: ['Integrations'],
        summary: "The company's API keys, newest first, revoked ones included",
        description: 'Cursor-paged: pass meta.nextCursor as cursor for the next page; a cursor of another company is 400 INVALID_CURSOR.',
        querystring: KeysQuery,
        response: { 200: successEnvelope(Type.Array(PanelApiKey), PanelCursorMeta), ...panelErrorResponses('FORBIDDEN', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED') },
      },
    },
    async (request) => {
      const { limit = CURSOR_DEFAULT_LIMIT, cursor } = request.query;
      const page = await pageKeys(ctx.db, { cursorSecret: ctx.config.secretKey }, { companyId: request.panel.companyId, limit, cursor });
      return ok(page.items, cursorMeta(page, limit));
    },
  );

  app.post<{ Body: CreateKeyBody }>(
    '/keys',
    {
      config: { permission: 'integrations' },
      schema: {
        operationId: 'createKey',
        tags: ['Integrations'],
        summary: 'Create an API key; its token is in this answer only',
        body: CreateKeyBody,
        response: { 201: successEnvelope(CreatedKey), ...panelErrorResponses('FORBIDDEN', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => {
      const { companyId } = request.panel;
      const { expiresAt, ...rest } = request.body;
      const created = await ctx.db.transaction(async (tx) => {
        // The body schema checked the format: parseInstant only turns it into the Date the service takes.
        const result = await createKey(tx, ctx, { ...rest, companyId, expiresAt: expiresAt ? parseInstant(expiresAt) : null });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'key.created', details: { keyId: result.key.id, name: result.key.name, scopes: result.key.scopes } });
        return result;
      });
      return reply.code(201).send(ok(created));
    },
  );

  app.post<{ Params: IdParams }>(
    '/keys/:id/revoke',
    {
      config: { permission: 'integrations' },
      schema: {
        operationId: 'revokeKey',
        tags: ['Integrations'],
        summary: 'Revoke an API key: it stops working at once (revoking again keeps the first time)',
        params: IdParams,
        response: { 200: successEnvelope(PanelApiKey), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      const key = await ctx.db.transaction(async (tx) => {
        const revoked = await revokeKey(tx, ctx, { companyId, id: request.params.id });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'key.revoked', details: { keyId: revoked.id, name: revoked.name } });
        return revoked;
      });
      return ok(key);
    },
  );
}
