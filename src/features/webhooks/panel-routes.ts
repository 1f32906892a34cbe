import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok, successEnvelope } from '../../platform/app/envelope.js';
import { auditedBy } from '../../platform/app/panel/audited-by.js';
import { PanelCursorMeta, panelErrorResponses } from '../../platform/app/panel/panel-envelope.js';
import { cursorMeta, rejectPageParameter } from '../../platform/app/pagination.js';
import { parseInstant } from '../../lib/date-time.js';
import { recordAudit } from '../audit/index.js';
import { EVENT_TYPES } from '../events/index.js';
import { createSubscription } from './create-subscription.js';
import { deleteSubscription } from './delete-subscription.js';
import { disableSubscription } from './disable-subscription.js';
import { editSubscription } from './edit-subscription.js';
import { enableSubscription } from './enable-subscription.js';
import { listSubscriptions } from './list-subscriptions.js';
import { pageDeliveries } from './page-deliveries.js';
import { pingSubscription } from './ping-subscription.js';
import { recoverDeliveries } from './recover-deliveries.js';
import { resendDelivery } from './resend-delivery.js';
import { rotateSubscriptionSecret } from './rotate-subscription-secret.js';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  EditWebhookBody,
  PanelDelivery,
  PanelWebhook,
  PingBody,
  PingResult,
  RecoverBody,
  RecoverResult,
  ResendResult,
  WebhookWithSecret,
} from './panel-schemas.js';
import { ALL_TYPES } from './vocabulary.js';

const IdParams = (description: string) => Type.Object({ id: Type.String({ description }) });
type IdParams = Static<ReturnType<typeof IdParams>>;

const tags = ['Integrations'];
const DEFAULT_DELIVERY_PAGE = 50;
const config = { permission: 'integrations' } as const;

/** The panel's webhooks (permission integrations): the same services as the CLI; creation, edits, rotation and deletion audited in their transaction. */
export async function webhookPanelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const one = (summary: string, operationId: string) => ({
    config,
    schema: {
      operationId,
      tags,
      summary,
      params: IdParams('Webhook subscription id'),
      response: { 200: successEnvelope(PanelWebhook), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
    },
  });

  app.get(
    '/webhooks/event-types',
    {
      config,
      schema: {
        operationId: 'listWebhookEventTypes',
        tags,
        summary: 'The event types a subscription may select ("*" selects all)',
        response: { 200: successEnvelope(Type.Array(Type.String())), ...panelErrorResponses('FORBIDDEN') },
      },
    },
    async () => ok([ALL_TYPES, ...EVENT_TYPES]),
  );

  app.get(
    '/webhooks',
    {
      config,
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: "The company's webhook subscriptions, newest first",
        response: { 200: successEnvelope(Type.Array(PanelWebhook)), ...panelErrorResponses('FORBIDDEN') },
      },
    },
    async (request) => ok(await listSubscriptions(ctx.db, ctx, { companyId: request.panel.companyId })),
  );

  app.post<{ Body: CreateWebhookBody }>(
    '/webhooks',
    {
      config,
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Subscribe a URL to events; the signing secret is in this answer only',
        body: CreateWebhookBody,
        response: { 201: successEnvelope(WebhookWithSecret), ...panelErrorResponses('FORBIDDEN', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => {
      const { companyId } = request.panel;
      const created = await ctx.db.transaction(async (tx) => {
        const result = await createSubscription(tx, ctx, { ...request.body, companyId });
        const { id, url, types } = result.subscription;
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'webhook.created', details: { subscriptionId: id, url, types } });
        return result;
      });
      return reply.code(201).send(ok(created));
    },
  );

  app.patch<{ Params: IdParams; Body: EditWebhookBody }>(
    '/webhooks/:id',
    {
      config,
      schema: {
        operationId: 'editWebhook',
        tags,
        summary: 'Change the URL and/or event types of a subscription; its secret, state and log are kept',
        description: 'Checked like creation (the same URL guard and event types). Audited as webhook.updated with what changed, from and to.',
        params: IdParams('Webhook subscription id'),
        body: EditWebhookBody,
        response: { 200: successEnvelope(PanelWebhook), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      return ok(
        await ctx.db.transaction(async (tx) => {
          const { subscription, from, to } = await editSubscription(tx, ctx, { ...request.body, companyId, id: request.params.id });
          if (Object.keys(to).length) await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'webhook.updated', details: { subscriptionId: subscription.id, from, to } });
          return subscription;
        }),
      );
    },
  );

  app.post<{ Params: IdParams }>('/webhooks/:id/enable', one('Resume deliveries, pending ones included', 'enableWebhook'), async (request) =>
    ok(await enableSubscription(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );

  app.post<{ Params: IdParams }>('/webhooks/:id/disable', one('Stop deliveries; pending ones wait until it is enabled', 'disableWebhook'), async (request) =>
    ok(await disableSubscription(ctx.db, ctx, { companyId: request.panel.companyId, id: request.params.id })),
  );

  app.delete<{ Params: IdParams }>('/webhooks/:id', one('Delete a subscription with its delivery log', 'deleteWebhook'), async (request) => {
    const { companyId } = request.panel;
    return ok(
      await ctx.db.transaction(async (tx) => {
        const deleted = await deleteSubscription(tx, ctx, { companyId, id: request.params.id });
        await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'webhook.deleted', details: { subscriptionId: deleted.id, url: deleted.url } });
        return deleted;
      }),
    );
  });

  app.post<{ Params: IdParams }>(
    '/webhooks/:id/rotate-secret',
    {
      config,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'A new signing secret, in this answer only; the old one also signs for 24 hours',
        params: IdParams('Webhook subscription id'),
        response: { 200: successEnvelope(WebhookWithSecret), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND') },
      },
    },
    async (request) => {
      const { companyId } = request.panel;
      return ok(
        await ctx.db.transaction(async (tx) => {
          const rotated = await rotateSubscriptionSecret(tx, ctx, { companyId, id: request.params.id });
          await recordAudit(tx, ctx, { companyId, ...auditedBy(request), action: 'webhook.secret_rotated', details: { subscriptionId: rotated.subscription.id } });
          return rotated;
        }),
      );
    },
  );

  app.post<{ Params: IdParams; Body: PingBody }>(
    '/webhooks/:id/ping',
    {
      config,
      schema: {
        operationId: 'pingWebhook',
        tags,
        summary: 'Send a ping event to this subscription through the normal pipeline (signed, retried, logged)',
        description: 'A disabled subscription is refused (400 VALIDATION_ERROR, path subscription): enable it first.',
        params: IdParams('Webhook subscription id'),
        body: PingBody,
        response: { 202: successEnvelope(PingResult), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => {
      const { subscriptionId, event } = await pingSubscription(ctx.db, ctx, {
        companyId: request.panel.companyId,
        subscriptionId: request.params.id,
        message: request.body?.message,
      });
      return reply.code(202).send(ok({ subscriptionId, eventId: event.id }));
    },
  );

  app.get<{ Querystring: DeliveriesQuery }>(
    '/webhooks/deliveries',
    {
      config,
      preValidation: rejectPageParameter,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The delivery log, newest first, each delivery with every attempt',
        description: 'Cursor-paged: pass meta.nextCursor as cursor with the same filters; a cursor of another company or other filters is 400 INVALID_CURSOR.',
        querystring: DeliveriesQuery,
        response: { 200: successEnvelope(Type.Array(PanelDelivery), PanelCursorMeta), ...panelErrorResponses('FORBIDDEN', 'VALIDATION_ERROR', 'INVALID_CURSOR', 'PAGE_NOT_SUPPORTED') },
      },
    },
    async (request) => {
      const { limit = DEFAULT_DELIVERY_PAGE, ...filter } = request.query;
      const page = await pageDeliveries(ctx.db, { cursorSecret: ctx.config.secretKey }, { companyId: request.panel.companyId, limit, ...filter });
      return ok(page.items, cursorMeta(page, limit));
    },
  );

  app.post<{ Params: IdParams }>(
    '/webhooks/deliveries/:id/resend',
    {
      config,
      schema: {
        operationId: 'resendWebhookDelivery',
        tags,
        summary: "Send a delivery's event again, as a new delivery due now",
        params: IdParams('Webhook delivery id'),
        response: { 202: successEnvelope(ResendResult), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => reply.code(202).send(ok(await resendDelivery(ctx.db, ctx, { companyId: request.panel.companyId, deliveryId: request.params.id }))),
  );

  app.post<{ Body: RecoverBody }>(
    '/webhooks/recover',
    {
      config,
      schema: {
        operationId: 'recoverWebhookDeliveries',
        tags,
        summary: 'Re-deliver every event since a time (pings excepted) to the subscriptions that select it',
        body: RecoverBody,
        response: { 202: successEnvelope(RecoverResult), ...panelErrorResponses('FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR') },
      },
    },
    async (request, reply) => {
      const { since, subscriptionId } = request.body;
      const result = await recoverDeliveries(ctx.db, ctx, {
        companyId: request.panel.companyId,
        // The body schema checked the format; an unreadable time reaches the service as invalid, which it refuses on `since`.
        since: parseInstant(since) ?? new Date(Number.NaN),
        subscriptionId,
      });
      return reply.code(202).send(ok(result));
    },
  );
}
