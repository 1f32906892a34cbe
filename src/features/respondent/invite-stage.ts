import { and, eq, gt, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/database.js';
import { invites } from '../../db/schema.js';
import type { EmitDeps } from '../events/emit-event.js';
import { emitInviteEvent } from '../invites/emit-invite-event.js';
import type { InviteStatus } from '../invites/schemas.js';
import { inviteRow, type InviteRecord } from './find-invite.js';

export type RespondentStage = 'opened' | 'started' | 'responded';

/** The main line of stored statuses (contract decisions): it only moves forward. */
const MAIN_LINE: readonly InviteStatus[] = ['created', 'queued', 'sent', 'delivered', 'opened', 'started', 'responded'];
const FINAL: InviteStatus[] = ['responded', 'revoked', 'expired'];

const STAMP = { opened: invites.openedAt, started: invites.startedAt, responded: invites.respondedAt } as const;
const STAMP_FIELD = { opened: 'openedAt', started: 'startedAt', responded: 'respondedAt' } as const;

/** An invite that can still be answered at `now`: not final, not past its expiry. */
export function liveInvite(now: Date): SQL {
  return and(notInArray(invites.status, FINAL), or(isNull(invites.expiresAt), gt(invites.expiresAt, now)))!;
}

/**
 * Stamps a stage of a live invite once and emits its invite.* event in the same transaction. The
 * conditional UPDATE (`<stage>_at IS NULL`) decides which request does it, so the event fires
 * exactly once however many race. The stored status moves to the stage only from an earlier one
 * of the main line (or failed, a side exit a person may still answer): a started invite opened
 * late keeps "started". Answers the updated invite, or null when this request did not stamp it.
 */
export async function stampStage(tx: Tx, deps: EmitDeps, inviteId: string, stage: RespondentStage, formName: string): Promise<InviteRecord | null> {
  const now = deps.clock.now();
  const earlier: InviteStatus[] = [...MAIN_LINE.slice(0, MAIN_LINE.indexOf(stage)), 'failed'];
  const moves = inArray(invites.status, earlier);
  const [row] = await tx
    .update(invites)
    .set({
      [STAMP_FIELD[stage]]: now,
      status: sql`CASE WHEN ${moves} THEN ${stage} ELSE ${invites.status} END`,
      statusChangedAt: sql`CASE WHEN ${moves} THEN ${now}::timestamptz ELSE ${invites.statusChangedAt} END`,
    })
    .where(and(eq(invites.id, inviteId), isNull(STAMP[stage]), liveInvite(now)))
    .returning();
  if (!row) return null;
  await emitInviteEvent(tx, deps, { type: `invite.${stage}`, invite: inviteRow(row), formName });
  return row;
}
