import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ok } from '../../platform/app/envelope.js';
import { ApiError } from '../../lib/errors.js';
import { applyReceipt, type Receipt, type ReceiptOutcome } from './apply-receipt.js';
import { postmarkReceipts } from './postmark-receipts.js';
import { GenericReceipt, ofShape, WhatsappChange, WhatsappEntry, WhatsappStatus, WhatsappWebhook } from './provider-payloads.js';
import { verifyBasicAuth, verifyHubSignature, verifyStandardWebhook } from './verify-signature.js';

/** Largest callback body read; providers send small JSON documents. */
const CALLBACK_BODY_LIMIT = 256 * 1024;

const unauthorized = () => new ApiError('UNAUTHORIZED', 'The callback is unsigned or its signature does not verify.');

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'The body is not JSON.');
  }
}

/** The documented generic format: { type: delivered|bounced|complained|failed, messageId }. */
function genericReceipts(body: unknown): Receipt[] {
  if (!Value.Check(GenericReceipt, body)) throw new ApiError('VALIDATION_ERROR', 'Expected { type: delivered|bounced|complained|failed, messageId }.');
  return [{ channel: 'email', providerMessageId: body.messageId, outcome: body.type }];
}

const WHATSAPP_OUTCOMES: Record<string, ReceiptOutcome> = { delivered: 'delivered', read: 'delivered', failed: 'failed' };

/** entry[].changes[].value.statuses[] of the Cloud API; "sent" adds nothing to our own acceptance, "read" counts as delivered. */
function whatsappReceipts(body: unknown): Receipt[] {
  if (!Value.Check(WhatsappWebhook, body)) throw new ApiError('VALIDATION_ERROR', 'Expected a WhatsApp Cloud API webhook.');
  const changes = ofShape(WhatsappEntry, body.entry).flatMap((entry) => ofShape(WhatsappChange, entry.changes));
  return ofShape(WhatsappStatus, changes.flatMap((change) => change.value.statuses))
    .filter((status) => Object.hasOwn(WHATSAPP_OUTCOMES, status.status))
    .map((status) => ({ channel: 'whatsapp' as const, providerMessageId: status.id, outcome: WHATSAPP_OUTCOMES[status.status] }));
}

/**
 * Provider callbacks (not under /v1: providers call them). Each verifies its signature over the
 * raw body before anything else: unsigned or badly signed is 401 and changes nothing; a receipt
 * for an unknown message id is 200 and changes nothing (providers would retry otherwise).
 */
export async function callbackRoutes(app: FastifyInstance) {
  // Signatures cover the exact bytes: keep the body as text in this plugin.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (_request, body, done) => done(null, body));
  const hidden = { hide: true };

  async function apply(receipts: Receipt[], reply: FastifyReply) {
    for (const receipt of receipts) await applyReceipt(app.ctx.db, app.ctx, receipt);
    return reply.send(ok({ received: receipts.length }));
  }

  app.post<{ Params: { provider: string }; Body: string }>('/callbacks/email/:provider', { schema: hidden }, async (request, reply) => {
    const secret = app.ctx.config.callbackSecret;
    const body = typeof request.body === 'string' ? request.body : '';
    if (request.params.provider === 'generic') {
      if (!secret || !verifyStandardWebhook(secret, request.headers, body, app.ctx.clock.now())) throw unauthorized();
      return apply(genericReceipts(parseJson(body)), reply);
    }
    if (request.params.provider === 'postmark') {
      if (!secret || !verifyBasicAuth(secret, request.headers.authorization)) throw unauthorized();
      return apply(postmarkReceipts(parseJson(body)), reply);
    }
    throw new ApiError('NOT_FOUND', 'No such e-mail provider callback.');
  });

  app.get<{ Querystring: Record<string, string> }>('/callbacks/whatsapp', { schema: hidden }, async (request, reply) => {
    const token = app.ctx.config.whatsappVerifyToken;
    const q = request.query;
    if (!token || q['hub.mode'] !== 'subscribe' || q['hub.verify_token'] !== token || typeof q['hub.challenge'] !== 'string') throw unauthorized();
    return reply.type('text/plain').send(q['hub.challenge'].slice(0, 200));
  });

  app.post<{ Body: string }>('/callbacks/whatsapp', { schema: hidden }, async (request, reply) => {
    const secret = app.ctx.config.whatsappAppSecret;
    const body = typeof request.body === 'string' ? request.body : '';
    if (!secret || !verifyHubSignature(secret, request.headers['x-hub-signature-256'], body)) throw unauthorized();
    return apply(whatsappReceipts(parseJson(body)), reply);
  });
}
