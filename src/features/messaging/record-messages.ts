import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import type { WorkerContext } from '../../platform/jobs/define-task.js';
import type { InviteWithForm } from '../invites/index.js';
import { emitInviteMoves, moveInvites, moveInvitesSql } from '../invites/index.js';
import { quotaSettlement, settleQuota } from '../companies/index.js';
import { retryDelay, type RetrySchedule } from '../../platform/outbound/index.js';
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

/** One row per invite of `messages`: its newest message's channel and batch, which the invite keeps (the lifecycle's sent move). */
const newestPerInvite = (messages: SQL) =>
  sql`(SELECT DISTINCT ON (company_id, invite_id) company_id, invite_id, channel, batch_id FROM ${messages} ORDER BY company_id, invite_id, id DESC)`;

/**
 * Every message the provider accepted, in one statement however many: each still held by its
 * attempt (the fencing token) becomes sent, its unit moves from reserved to used, and its invite
 * moves to sent; answers one invite row per message, for its invite.sent event.
 */
async function recordSent(tx: Tx, sent: { item: ClaimedMessage; providerMessageId: string }[], now: Date): Promise<InviteWithForm[]> {
  const { rows } = await tx.execute<InviteWithForm>(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(sent.map(({ item, providerMessageId }) => ({ id: item.id, attempt: item.attempt, providerMessageId })))}::jsonb)
        AS i(id uuid, attempt int, "providerMessageId" text)
    ), done AS (
      UPDATE invite_messages m SET status = 'sent', completed_at = ${now}, lease_until = NULL, provider_message_id = i."providerMessageId", last_error = NULL
        FROM input i
       WHERE m.id = i.id AND m.status = 'pending' AND m.attempts = i.attempt
      RETURNING m.id, m.company_id, m.invite_id, m.channel, m.batch_id, m.quota_period
    ), quota AS (${quotaSettlement(sql`done`, true)}
    ), moved AS (${moveInvitesSql('sent', { targets: newestPerInvite(sql`done`), now })})
    SELECT moved.* FROM done JOIN moved ON moved.id = done.invite_id`);
  return rows;
}

/** The invite of a message with the message's channel and batch, as the lifecycle's send moves read them. */
const messageInvite = (item: ClaimedMessage) => sql`(SELECT company_id, invite_id, channel, batch_id FROM invite_messages WHERE id = ${item.id})`;

const messageSql = (item: ClaimedMessage) => sql`SELECT company_id, quota_period FROM invite_messages WHERE id = ${item.id}`;

/** A result other than sent (blocked, retried, failed): rare, one item at a time. */
async function recordOne(tx: Tx, ctx: WorkerContext, item: ClaimedMessage, result: Exclude<MessageResult, { outcome: 'sent' }>, now: Date, random: () => number): Promise<void> {
  if (result.outcome === 'blocked') {
    if (!(await finish(tx, item, 'cancelled', now, { error: result.reason }))) return;
    await settleQuota(tx, ctx, { messages: messageSql(item), consume: false });
    // Revoke and expiry have their own events; a suppression found now is this message's failure.
    if (result.reason === 'suppressed') await moveInvites(tx, ctx, { move: 'sendFailed', targets: messageInvite(item), failReason: 'suppressed' });
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
  await settleQuota(tx, ctx, { messages: messageSql(item), consume: true });
  await moveInvites(tx, ctx, { move: 'sendFailed', targets: messageInvite(item), failReason: 'send_failed' });
}

/**
 * Records a batch of attempts in one transaction (the loop's group commit): the sent ones
 * set-wise, with their invite.sent events in one statement. The commit waits for its WAL flush:
 * a message counts as done only once its outcome survives a Postgres crash, so such a crash
 * re-sends only what was still being sent or recorded (the loop's slots, see slotUntilRecorded),
 * where an unflushed commit could lose the outcomes of the last few hundred milliseconds.
 */
export async function recordMessages(ctx: WorkerContext, items: { item: ClaimedMessage; result: MessageResult }[], random: () => number = Math.random): Promise<void> {
  const now = ctx.clock.now();
  const sent = items.flatMap(({ item, result }) => (result.outcome === 'sent' ? [{ item, providerMessageId: result.providerMessageId }] : []));
  await ctx.db.transaction(async (tx) => {
    if (sent.length > 0) await emitInviteMoves(tx, ctx, { move: 'sent', invites: await recordSent(tx, sent, now) });
    for (const { item, result } of items) if (result.outcome !== 'sent') await recordOne(tx, ctx, item, result, now, random);
  });
}
