import { Value } from '@sinclair/typebox/value';
import { ApiError } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Receipt, ReceiptOutcome } from './apply-receipt.js';
import { PostmarkMetadata, PostmarkWebhook } from './provider-payloads.js';

/**
 * Postmark's webhooks carry Postmark's own MessageID, never the Message-ID header we generate, so
 * each e-mail names its message (invite_messages.id) in custom metadata: an `X-PM-Metadata-<key>`
 * header, which Postmark strips from the mail and returns in every webhook's `Metadata`.
 */
const METADATA_KEY = 'quorum-message-id';

/** The headers that make Postmark return the message's id in its webhooks. */
export function postmarkMetadataHeaders(messageId: string): Record<string, string> {
  return { [`X-PM-Metadata-${METADATA_KEY}`]: messageId };
}

/** Webhooks of the older, server-level settings come without RecordType: known by their fields. */
function recordType(body: PostmarkWebhook): unknown {
  if (body.RecordType !== undefined) return body.RecordType;
  if (body.Type === 'SpamComplaint') return 'SpamComplaint';
  if (typeof body.Type === 'string') return 'Bounce';
  if ('DeliveredAt' in body) return 'Delivery';
  if ('SuppressSending' in body) return 'SubscriptionChange';
  return undefined;
}

/**
 * A SubscriptionChange adds the address to Postmark's suppression list (SuppressSending true):
 * its reason names the cause, and a recipient's own unsubscribe comes as ManualSuppression with
 * Origin Recipient. A reactivation (SuppressSending false) changes nothing here: lifting a
 * suppression is the operator's decision (`quorum suppression remove`).
 */
function subscriptionOutcome(body: PostmarkWebhook): ReceiptOutcome | null {
  if (body.SuppressSending !== true) return null;
  if (body.SuppressionReason === 'HardBounce') return 'bounced';
  if (body.SuppressionReason === 'SpamComplaint') return 'complained';
  if (body.SuppressionReason === 'ManualSuppression') return body.Origin === 'Recipient' ? 'unsubscribed' : 'manual';
  return null;
}

/** What the webhook means for the message: Delivery, a HardBounce (soft bounces are transient), a SpamComplaint, a SubscriptionChange. */
function outcomeOf(body: PostmarkWebhook): ReceiptOutcome | null {
  switch (recordType(body)) {
    case 'Delivery':
      return 'delivered';
    case 'Bounce':
      return body.Type === 'HardBounce' ? 'bounced' : null;
    case 'SpamComplaint':
      return 'complained';
    case 'SubscriptionChange':
      return subscriptionOutcome(body);
    default:
      return null;
  }
}

/** Our message id in the webhook's Metadata (keys compared without case: SMTP header names have none). */
function metadataMessageId(metadata: unknown): string | null {
  if (!Value.Check(PostmarkMetadata, metadata)) return null;
  const entry = Object.entries(metadata).find(([key]) => key.toLowerCase() === METADATA_KEY);
  return typeof entry?.[1] === 'string' && isUuid(entry[1]) ? entry[1] : null;
}

/** A Postmark webhook as receipts: none when it concerns no message of ours or changes nothing (Open, Click, soft bounces). */
export function postmarkReceipts(body: unknown): Receipt[] {
  if (!Value.Check(PostmarkWebhook, body)) throw new ApiError('VALIDATION_ERROR', 'Expected a Postmark webhook (a JSON object).');
  const messageId = metadataMessageId(body.Metadata);
  const outcome = outcomeOf(body);
  return messageId && outcome ? [{ channel: 'email', messageId, outcome }] : [];
}
