import { request } from 'undici';
import type { WorkerContext } from '../../platform/jobs/define-task.js';
import type { OutboundKind } from '../../platform/outbound/index.js';
import { outboundDispatcher, targetRefusal } from '../../platform/outbound/index.js';
import { secretBox } from '../../lib/secret-box.js';
import { DEFAULT_GATEWAY_TEXT, type WhatsappChannel } from '../message-channels/index.js';
import type { ClaimedMessage } from './claim-messages.js';
import { messageKind, messageVariables } from './message-kind.js';
import type { MessageResult } from './record-messages.js';
import { renderText } from './render-email.js';
import { channelSecretContext } from './set-whatsapp-channel.js';

const TIMEOUT_MS = 15_000;

/** The Cloud API's template message: each numbered variable becomes a body parameter, in order. */
function cloudApiBody(item: ClaimedMessage, vars: ReturnType<typeof messageVariables>) {
  const template = item.template!;
  const parameters = Object.entries(template.variables ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, text]) => ({ type: 'text', text: renderText(text, vars) }));
  return {
    messaging_product: 'whatsapp',
    to: item.phone!.slice(1),
    type: 'template',
    template: { name: template.name, language: { code: template.language }, components: parameters.length > 0 ? [{ type: 'body', parameters }] : [] },
  };
}

/** 429 and 5xx (and no answer at all) may succeed later; any other refusal is final. */
const transientStatus = (status: number) => status === 429 || status >= 500;

/**
 * The WhatsApp kind of the outbound loop: the Cloud API (template messages, WHATSAPP_GRAPH_URL)
 * or a generic gateway (plain text POSTed with a bearer token), per the company's channel. The
 * target is the company, so one company's slow provider only slows its own messages.
 */
export function whatsappKind(ctx: WorkerContext): OutboundKind<ClaimedMessage, MessageResult> {
  const box = secretBox(ctx.config.secretKey);
  // The gateway URL is the company's, and the request carries its bearer token: the same guard as webhooks.
  const dispatcher = outboundDispatcher(ctx.config, TIMEOUT_MS);
  const formUrl = ctx.config.publicFormUrl;
  /**
   * The last token unsealed per company, with the sealed value it came from: the claim carries
   * each message's channel as it is now, so a changed token is unsealed again, and an unchanged
   * one is not unsealed once per message.
   */
  const tokens = new Map<string, { sealed: Buffer; token: string }>();
  function tokenOf(companyId: string, sealed: Buffer): string {
    const known = tokens.get(companyId);
    if (known?.sealed.equals(sealed)) return known.token;
    const token = box.open(sealed, channelSecretContext(companyId));
    tokens.set(companyId, { sealed, token });
    return token;
  }

  async function post(url: string, token: string, body: unknown, messageId: string): Promise<MessageResult> {
    try {
      const res = await request(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        dispatcher,
      });
      const text = await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) {
        // The Cloud API answers messages[0].id (the wamid its receipts refer to); a gateway may answer id.
        let answer: { messages?: { id?: string }[]; id?: string } = {};
        try {
          answer = JSON.parse(text) as typeof answer;
        } catch {
          // An accepted message with an unreadable answer is still sent; receipts just cannot find it.
        }
        return { outcome: 'sent', providerMessageId: answer.messages?.[0]?.id ?? answer.id ?? `accepted:${messageId}` };
      }
      const retryAfter = res.headers['retry-after'];
      return { outcome: 'failed', transient: transientStatus(res.statusCode), error: `HTTP ${res.statusCode}: ${text.slice(0, 300)}`, retryAfter: typeof retryAfter === 'string' ? retryAfter : null };
    } catch (err) {
      // A refused target stays refused (only the operator's setting changes that): failed for good, as a webhook is.
      const refusal = targetRefusal(err);
      if (refusal) return { outcome: 'failed', transient: false, error: refusal.message };
      return { outcome: 'failed', transient: true, error: (err as Error).message.slice(0, 300) };
    }
  }

  async function sendWith(channel: WhatsappChannel, item: ClaimedMessage): Promise<MessageResult> {
    const token = tokenOf(item.companyId, channel.credentialsSealed);
    const vars = messageVariables(item, formUrl);
    if (channel.provider === 'cloud-api') {
      return post(`${ctx.config.whatsappGraphUrl}/${channel.settings.phoneNumberId}/messages`, token, cloudApiBody(item, vars), item.id);
    }
    return post(channel.settings.url!, token, { to: item.phone, text: renderText(channel.settings.text ?? DEFAULT_GATEWAY_TEXT, vars) }, item.id);
  }

  return messageKind('whatsapp', async (item) => {
    const channel = item.whatsapp;
    // The channel was removed after the send call: nothing can carry the message.
    if (!channel) return { outcome: 'failed', transient: false, error: 'the WhatsApp channel is no longer configured' };
    if (channel.provider === 'cloud-api' && !item.template) return { outcome: 'failed', transient: false, error: 'no template for the cloud API' };
    return sendWith(channel, item);
  }, () => dispatcher.close());
}
