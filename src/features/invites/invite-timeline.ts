import { sql } from 'drizzle-orm';
import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { notFound } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { listInviteEvents, type FailReason } from '../events/index.js';
import { INVITE_COLUMNS, inviteView, type InviteRow } from './invite-view.js';
import { INVITE_STATUSES, type InviteView } from './schemas.js';
import { isoTimestamp } from '../../platform/db/iso-timestamp.js';

export type TimelineStage = 'created' | 'queued' | 'sent' | 'delivered' | 'opened' | 'started' | 'responded' | 'failed' | 'revoked' | 'expired';

export interface TimelineStep {
  stage: TimelineStage;
  at: string;
  channel: 'email' | 'whatsapp' | null;
  failReason: FailReason | null;
  /** queued: when the message is due (a scheduled send), else null. */
  dueAt: string | null;
}

/**
 * One invite and what happened to it, oldest first: its creation, each send that queued a message
 * (invite_messages), and its events (sent, delivered, opened, started, responded, failed with the
 * reason, revoked, expired).
 */
export async function inviteTimeline(db: DbOrTx, deps: { formUrl: string; now: Date }, input: { companyId: string; inviteId: string }): Promise<{ invite: InviteView; steps: TimelineStep[] }> {
  const { companyId, inviteId } = input;
  if (!isUuid(inviteId)) throw notFound('Invite');
  const { rows } = await db.execute<InviteRow>(sql`SELECT ${INVITE_COLUMNS} FROM invites i WHERE i.company_id = ${companyId} AND i.id = ${inviteId}`);
  if (!rows[0]) throw notFound('Invite');
  const invite = inviteView(rows[0], deps);
  const { rows: messages } = await db.execute<{ at: string; channel: 'email' | 'whatsapp'; dueAt: string }>(sql`
    SELECT ${isoTimestamp(sql`created_at`)} AS at, channel, ${isoTimestamp(sql`due_at`)} AS "dueAt"
      FROM invite_messages WHERE company_id = ${companyId} AND invite_id = ${inviteId} ORDER BY id`);
  const events = await listInviteEvents(db, noDeps, { companyId, inviteId });
  const steps: TimelineStep[] = [
    { stage: 'created', at: invite.createdAt, channel: null, failReason: null, dueAt: null },
    ...messages.map((m) => ({ stage: 'queued' as const, at: m.at, channel: m.channel, failReason: null, dueAt: m.dueAt > m.at ? m.dueAt : null })),
    ...events.map((e) => ({ stage: e.type.slice('invite.'.length) as TimelineStage, at: e.occurredAt, channel: e.channel, failReason: e.failReason, dueAt: null })),
  ];
  // By time; steps of the same instant (a send and its record in one millisecond) in the lifecycle's order.
  return { invite, steps: steps.sort((a, b) => a.at.localeCompare(b.at) || INVITE_STATUSES.indexOf(a.stage) - INVITE_STATUSES.indexOf(b.stage)) };
}
