import type { WorkerContext } from '../../jobs/define-task.js';
import type { Mailer } from '../../lib/providers.js';
import { bareMessageId } from '../callbacks/apply-receipt.js';
import { inviteUrl } from '../invites/invite-view.js';
import type { OutboundKind } from '../outbound/kind.js';
import { claimMessages, type ClaimedMessage } from './claim-messages.js';
import { devMailbox } from './dev-mailbox.js';
import { formEmailTemplate } from './email-template.js';
import { recordMessages, type MessageResult } from './record-messages.js';
import { renderEmail, type MessageVariables } from './render-email.js';
import { isTransientSmtpError, smtpMailer } from './smtp-mailer.js';

/** Channel of the commits that queue messages (send-invites notifies it). */
export const MESSAGES_CHANNEL = 'quorum_invite_messages';

/** Why a claimed message must not leave, judged when its turn comes; null: send it. */
export function blockedReason(item: ClaimedMessage, now: Date): 'revoked' | 'expired' | 'responded' | 'suppressed' | null {
  if (item.inviteStatus === 'revoked' || item.inviteStatus === 'responded') return item.inviteStatus;
  if (item.inviteStatus === 'expired' || (item.expiresAt && item.expiresAt <= now)) return 'expired';
  return item.suppressed ? 'suppressed' : null;
}

export function messageVariables(item: ClaimedMessage, formUrl: string): MessageVariables {
  return {
    name: item.name,
    email: item.email,
    phone: item.phone,
    externalId: item.externalId,
    url: inviteUrl(formUrl, item.token),
    formName: item.formName,
    expiresAt: item.expiresAt?.toISOString() ?? null,
    dims: item.dims,
  };
}

/** The one-click unsubscribe page of a token, beside the personal link's pages (/u/{token}). */
export function unsubscribeUrl(formUrl: string, token: string): string {
  return new URL(`/u/${token}`, formUrl).toString();
}

/** The e-mail kind of the outbound loop: SMTP_URL through a pooled nodemailer transport, or the development mailbox. */
export function emailKind(ctx: WorkerContext, mailer: Mailer = ctx.mailer ?? (ctx.config.smtpUrl ? smtpMailer(ctx.config.smtpUrl) : devMailbox(ctx.db, ctx))): OutboundKind<ClaimedMessage, MessageResult> {
  const formUrl = ctx.config.publicFormUrl;
  return {
    name: 'email',
    notifyChannel: MESSAGES_CHANNEL,
    claim: (workerCtx, request) => claimMessages(workerCtx, 'email', request),
    async send(item, now) {
      const blocked = blockedReason(item, now);
      if (blocked) return { outcome: 'blocked', reason: blocked };
      const unsubscribe = unsubscribeUrl(formUrl, item.token);
      const rendered = renderEmail(formEmailTemplate({ content: item.formContent as never }), messageVariables(item, formUrl), unsubscribe);
      try {
        const { messageId } = await mailer.send({
          from: item.mailFrom ?? ctx.config.mailFrom,
          to: item.email!,
          ...rendered,
          headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
        return { outcome: 'sent', providerMessageId: bareMessageId(messageId) };
      } catch (err) {
        return { outcome: 'failed', transient: isTransientSmtpError(err), error: (err as Error).message.slice(0, 500) };
      }
    },
    record: (workerCtx, items) => recordMessages(workerCtx, items),
    close: () => mailer.close(),
  };
}
