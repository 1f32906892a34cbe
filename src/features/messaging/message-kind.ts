import { inviteUrl } from '../invites/index.js';
import { MESSAGES_CHANNEL } from '../message-channels/index.js';
import type { OutboundKind } from '../../platform/outbound/index.js';
import { claimMessages, type ClaimedMessage, type MessageChannel } from './claim-messages.js';
import { recordMessages, type MessageResult } from './record-messages.js';
import type { MessageVariables } from './render-email.js';

/** Why a claimed message must not leave, judged when its turn comes; null: send it. */
export function blockedReason(item: ClaimedMessage, now: Date): 'revoked' | 'expired' | 'responded' | 'suppressed' | null {
  if (item.inviteStatus === 'revoked' || item.inviteStatus === 'responded') return item.inviteStatus;
  if (item.inviteStatus === 'expired' || (item.expiresAt && item.expiresAt <= now)) return 'expired';
  return item.suppressed ? 'suppressed' : null;
}

/** An expiry as a person reads it: a long date and time in the message's language and the company's zone. */
export function readableExpiry(at: Date, language: string, timeZone: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(at);
}

export function messageVariables(item: ClaimedMessage, formUrl: string): MessageVariables {
  return {
    company: item.companyName,
    name: item.name,
    email: item.email,
    phone: item.phone,
    externalId: item.externalId,
    url: inviteUrl(formUrl, item.token),
    formName: item.formName,
    expiresAt: item.expiresAt ? readableExpiry(item.expiresAt, item.language, item.timeZone) : null,
    dims: item.dims,
  };
}

/**
 * A message channel as a kind of the outbound loop: the claim of the channel's due messages, the
 * revoke/expiry/suppression check when each message's turn comes, the channel's own sending, and
 * the shared record (quota, invite status, events).
 */
export function messageKind(
  channel: MessageChannel,
  sendOne: (item: ClaimedMessage, now: Date) => Promise<MessageResult>,
  close?: () => Promise<void>,
): OutboundKind<ClaimedMessage, MessageResult> {
  return {
    name: channel,
    notifyChannel: MESSAGES_CHANNEL,
    claim: (ctx, request) => claimMessages(ctx, channel, request),
    async send(item, now) {
      const blocked = blockedReason(item, now);
      return blocked ? { outcome: 'blocked', reason: blocked } : sendOne(item, now);
    },
    record: (ctx, items) => recordMessages(ctx, items),
    // A message's slot is its SMTP connection or HTTP request: a crash re-sends at most one message per slot.
    slotUntilRecorded: true,
    close,
  };
}
