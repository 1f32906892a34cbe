import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import { moveInvites, type InviteStatus } from '../invites/index.js';

export type RespondentStage = 'opened' | 'started' | 'responded';

/**
 * Stamps a stage of a live invite once and emits its invite.* event in the same transaction (the
 * invite lifecycle's move named after the stage). The conditional UPDATE (`<stage>_at IS NULL`)
 * decides which request does it, so the event fires exactly once however many race; a started
 * invite opened late keeps "started". Answers the invite's status after the move (the stage's stamp is
 * the clock's now), or null when this request did not stamp it; the caller already holds the rest of the row.
 */
export async function stampStage(tx: Tx, deps: EmitDeps, inviteId: string, stage: RespondentStage): Promise<{ status: InviteStatus } | null> {
  const [moved] = await moveInvites(tx, deps, { move: stage, targets: sql`(SELECT company_id, id AS invite_id FROM invites WHERE id = ${inviteId})` });
  return moved ? { status: moved.status } : null;
}
