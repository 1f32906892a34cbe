import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/database.js';
import { invites } from '../../db/schema.js';
import type { EmitDeps } from '../events/index.js';
import { moveInvites } from '../invites/index.js';
import type { InviteRecord } from './find-invite.js';

export type RespondentStage = 'opened' | 'started' | 'responded';

/**
 * Stamps a stage of a live invite once and emits its invite.* event in the same transaction (the
 * invite lifecycle's move named after the stage). The conditional UPDATE (`<stage>_at IS NULL`)
 * decides which request does it, so the event fires exactly once however many race; a started
 * invite opened late keeps "started". Answers the updated invite, or null when this request did not stamp it.
 */
export async function stampStage(tx: Tx, deps: EmitDeps, inviteId: string, stage: RespondentStage): Promise<InviteRecord | null> {
  const [moved] = await moveInvites(tx, deps, { move: stage, targets: sql`(SELECT company_id, id AS invite_id FROM invites WHERE id = ${inviteId})` });
  if (!moved) return null;
  const [row] = await tx.select().from(invites).where(eq(invites.id, inviteId));
  return row;
}
