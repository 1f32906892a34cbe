import type { InviteEventType } from '../../events/index.js';
import { INVITE_STATUSES, type InviteStatus } from '../schemas.js';

/** The main line of stored statuses (contract decisions): it only moves forward. */
export const MAIN_LINE = ['created', 'queued', 'sent', 'delivered', 'opened', 'started', 'responded'] as const satisfies readonly InviteStatus[];

/** Statuses no send, receipt, respondent or sweep moves an invite out of (revoke alone ends an expired one). */
export const FINAL_STATUSES: readonly InviteStatus[] = ['responded', 'revoked', 'expired'];

const NOT_FINAL = INVITE_STATUSES.filter((status) => !FINAL_STATUSES.includes(status));

/** A respondent stage moves from an earlier status of the main line, or from failed (a side exit a person may still answer). */
const earlierThan = (stage: InviteStatus): InviteStatus[] => [...MAIN_LINE.slice(0, MAIN_LINE.indexOf(stage as (typeof MAIN_LINE)[number])), 'failed'];

export interface InviteTransition {
  to: InviteStatus;
  /** The stored statuses that move to `to`. */
  from: readonly InviteStatus[];
  event: InviteEventType;
  /**
   * What happens to a selected invite in another status. keep: its status stays but the fact is
   * still recorded (the event, the message's channel and batch, the stamp): a reminder sent to an
   * opened invite emits invite.sent without lowering it. skip: it is left alone, no event.
   */
  otherwise: 'keep' | 'skip';
  /** The invite stores the channel and send batch of the message recorded (its stage events carry them). */
  recordsMessage?: true;
  /** The respondent's stamp, set once: only a live invite not yet stamped moves, and the stamp decides who emits. */
  stamp?: 'opened_at' | 'started_at' | 'responded_at';
  /** The link dies: pending messages are cancelled with their units returned; the event reports the newest send, pending or not. */
  endsLink?: true;
}

export type InviteMove = 'sent' | 'sendFailed' | 'delivered' | 'receiptFailed' | 'opened' | 'started' | 'responded' | 'revoked' | 'expired';

/** Every way an invite's stored status changes after its creation; `moveInvites` is the only writer. */
export const INVITE_TRANSITIONS: Readonly<Record<InviteMove, InviteTransition>> = {
  /** The record step: the provider accepted the message. */
  sent: { to: 'sent', from: earlierThan('sent'), event: 'invite.sent', otherwise: 'keep', recordsMessage: true },
  /** The record step: failed for good, or blocked by a suppression when its turn came. */
  sendFailed: { to: 'failed', from: ['created', 'queued'], event: 'invite.failed', otherwise: 'keep', recordsMessage: true },
  /** Provider receipts: a late receipt never lowers an invite further along. */
  delivered: { to: 'delivered', from: ['created', 'queued', 'sent'], event: 'invite.delivered', otherwise: 'skip' },
  receiptFailed: { to: 'failed', from: ['created', 'queued', 'sent', 'delivered'], event: 'invite.failed', otherwise: 'skip' },
  /** The respondent surface. */
  opened: { to: 'opened', from: earlierThan('opened'), event: 'invite.opened', otherwise: 'keep', stamp: 'opened_at' },
  started: { to: 'started', from: earlierThan('started'), event: 'invite.started', otherwise: 'keep', stamp: 'started_at' },
  responded: { to: 'responded', from: earlierThan('responded'), event: 'invite.responded', otherwise: 'keep', stamp: 'responded_at' },
  /** The API's revoke: also of an invite whose expiry was stored; a responded one is refused by the caller. */
  revoked: { to: 'revoked', from: [...NOT_FINAL, 'expired'], event: 'invite.revoked', otherwise: 'skip', endsLink: true },
  /** The expiry sweep. */
  expired: { to: 'expired', from: NOT_FINAL, event: 'invite.expired', otherwise: 'skip', endsLink: true },
};
