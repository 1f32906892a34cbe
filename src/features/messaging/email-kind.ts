import type { WorkerContext } from '../../platform/jobs/define-task.js';
import type { Mailer } from '../../lib/providers.js';
import { bareMessageId } from '../callbacks/index.js';
import { postmarkMetadataHeaders } from '../callbacks/index.js';
import type { OutboundKind } from '../../platform/outbound/index.js';
import type { ClaimedMessage } from './claim-messages.js';
import { devMailbox } from './dev-mailbox.js';
import { messageKind, messageVariables } from './message-kind.js';
import type { MessageResult } from './record-messages.js';
import { mailSender } from './mail-sender.js';
import { logoPath } from '../companies/index.js';
import { renderEmail } from './render-email.js';
import { isTransientSmtpError, smtpMailer } from './smtp-mailer.js';

/** The one-click unsubscribe page of a token, beside the personal link's pages (/u/{token}). */
export function unsubscribeUrl(formUrl: string, token: string): string {
  return new URL(`/u/${token}`, formUrl).toString();
}

/**
 * One Message-ID per message, whatever the attempt: a retry, or a send again after a crash lost
 * its outcome, carries the id of the first, so the receiving side can tell it is the same mail.
 */
export function stableMessageId(formUrl: string, messageId: string): string {
  return `<${messageId}@${new URL(formUrl).hostname}>`;
}

/** The e-mail kind of the outbound loop: SMTP_URL through a pooled nodemailer transport, or the development mailbox. */
export function emailKind(ctx: WorkerContext, mailer: Mailer = ctx.mailer ?? (ctx.config.smtpUrl ? smtpMailer(ctx.config.smtpUrl) : devMailbox(ctx.db, ctx))): OutboundKind<ClaimedMessage, MessageResult> {
  const formUrl = ctx.config.publicFormUrl;
  async function sendOne(item: ClaimedMessage): Promise<MessageResult> {
    const unsubscribe = unsubscribeUrl(formUrl, item.token);
    const brand = { color: item.brandColor, logoUrl: item.logo === null ? null : new URL(logoPath(item.companyId, item.logo), formUrl).toString() };
    const rendered = renderEmail(item.emailTemplate!, messageVariables(item, formUrl), unsubscribe, item.language, brand);
    try {
      const { messageId } = await mailer.send({
        ...mailSender({ name: item.companyName, mailFrom: item.mailFrom }, ctx.config.mailFrom),
        to: item.email!,
        messageId: stableMessageId(formUrl, item.id),
        ...rendered,
        headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', ...postmarkMetadataHeaders(item.id) },
      });
      return { outcome: 'sent', providerMessageId: bareMessageId(messageId) };
    } catch (err) {
      return { outcome: 'failed', transient: isTransientSmtpError(err), error: (err as Error).message.slice(0, 500) };
    }
  }
  return messageKind('email', sendOne, () => mailer.close());
}
