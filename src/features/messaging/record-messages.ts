import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/database.js';
import type { WorkerContext } from '../../jobs/define-task.js';
import { emitInviteEvent } from '../invites/emit-invite-event.js';
import { INVITE_COLUMNS, type InviteRow } from '../invites/invite-view.js';
import { settleQuota } from '../invites/quota.js';
import { retryDelay, type RetrySchedule } from '../outbound/retry-schedule.js';
import type { ClaimedMessage } from './claim-messages.js';

/** What one attempt came to. */
export type MessageResult =
  | { outcome: 'sent'; providerMessageId: string }
  | { outcome: 'failed'; transient: boolean; error: string; retryAfter?: string | null }
  /** Not sent: the invite was revoked, expired or its address suppressed when its turn came. */
  | { outcome: 'blocked'; reason: 'revoked' | 'expired' | 'responded' | 'suppressed' };

export const MESSAGE_RETRIES: RetrySchedule = {
  delaysMs: [30_000, 120_000, 600_000, 3_600_000, 4 * 3_600_000],
  jitterRatio: 0.2,
  overloadFloorMs: 60_000,
  maxRetryAfterMs: 6 * 3_600_000,
};

/** Ends a message held by this attempt (the fencing token); false when the lease was lost or it was cancelled meanwhile. */
async function finish(tx: Tx, item: ClaimedMessage, status: 'sent' | 'failed' | 'cancelled', now: Date, extra: { providerMessageId?: string; error?: string }) {
  const { rows } = await tx.execute(sql`
    UPDATE invite_messages SET status = ${status}, completed_at = ${now}, lease_until = NULL,
           provider_message_id = coalesce(${extra.providerMessageId ?? null}, provider_message_id), last_error = ${extra.error ?? null}
     WHERE id = ${item.id} AND status = 'pending' AND attempts = ${item.attempt}
    RETURNING company_id, quota_period`);
  return rows.length > 0;
}

/** Moves the invite along its main line (never back) or to failed, and answers it for the event. */
async function moveInvite(tx: Tx, item: ClaimedMessage, to: 'sent' | 'failed', now: Date): Promise<InviteRow & { formName: string }> {
  const movable = to === 'sent' ? sql`i.status IN ('created', 'queued', 'failed')` : sql`i.status IN ('created', 'queued')`;
  const { rows } = await tx.execute<InviteRow & { formName: string }>(sql`
    UPDATE invites i SET status = CASE WHEN ${movable} THEN ${to} ELSE i.status END,
                         status_changed_at = CASE WHEN ${movable} THEN ${now}::timestamptz ELSE i.status_changed_at END
      FROM forms f
     WHERE i.company_id = ${item.companyId} AND i.id = ${item.inviteId} AND f.company_id = i.company_id AND f.id = i.form_id
    RETURNING ${INVITE_COLUMNS}, f.name AS "formName"`);
  return rows[0];
}

const messageSql = (item: ClaimedMessage) => sql`SELECT company_id, quota_period FROM invite_messages WHERE id = ${item.id}`;

async function recordOne(tx: Tx, ctx: WorkerContext, item: ClaimedMessage, result: MessageResult, now: Date, random: () => number): Promise<void> {
  if (result.outcome === 'sent') {
    if (!(await finish(tx, item, 'sent', now, { providerMessageId: result.providerMessageId }))) return;
    await settleQuota(tx, messageSql(item), true);
    const invite = await moveInvite(tx, item, 'sent', now);
    await emitInviteEvent(tx, ctx, 'invite.sent', invite, invite.formName);
    return;
  }
  if (result.outcome === 'blocked') {
    if (!(await finish(tx, item, 'cancelled', now, { error: result.reason }))) return;
    await settleQuota(tx, messageSql(item), false);
    // Revoke and expiry have their own events; a suppression found now is this message's failure.
    if (result.reason === 'suppressed') {
      const invite = await moveInvite(tx, item, 'failed', now);
      await emitInviteEvent(tx, ctx, 'invite.failed', invite, invite.formName, 'suppressed');
    }
    return;
  }
  const delay = result.transient ? retryDelay(MESSAGE_RETRIES, { attempt: item.attempt, overloaded: false, retryAfterHeader: result.retryAfter, random, now }) : null;
  if (delay !== null) {
    await tx.execute(sql`
      UPDATE invite_messages SET due_at = ${new Date(now.getTime() + delay)}, lease_until = NULL, last_error = ${result.error}
       WHERE id = ${item.id} AND status = 'pending' AND attempts = ${item.attempt}`);
    return;
  }
  // A permanent failure consumes its unit: the provider was asked.
  if (!(await finish(tx, item, 'failed', now, { error: result.error }))) return;
  await settleQuota(tx, messageSql(item), true);
  const invite = await moveInvite(tx, item, 'failed', now);
  await emitInviteEvent(tx, ctx, 'invite.failed', invite, invite.formName, 'send_failed');
}

/** Records a batch of attempts in one transaction (the loop's group commit). */
export async function recordMessages(ctx: WorkerContext, items: { item: ClaimedMessage; result: MessageResult }[], random: () => number = Math.random): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    for (const { item, result } of items) await recordOne(tx, ctx, item, result, now, random);
  });
}
