import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { inviteDrafts, invites } from '../../platform/db/schema.js';
import { validationError } from '../../lib/errors.js';
import type { EmitDeps } from '../events/index.js';
import { isAnswered } from '../forms/index.js';
import { acceptAnswers } from './answers.js';
import { assertWritable, findInviteByToken, refuseChanged } from './find-invite.js';
import { liveInvite } from '../invites/index.js';
import { stampStage } from './invite-stage.js';

export interface SaveDraftInput {
  token: string;
  answers: unknown;
  /** The step the respondent is on (0-based), so a reload resumes there. */
  sectionIndex?: number;
}

export const MAX_SECTION_INDEX = 1000;

/**
 * Autosave: one draft per invite (upsert). Answers are checked for shape against the form
 * (unknown question ids refused, types and bounds as recordResponse checks, mandatory not yet),
 * answers to hidden questions dropped. The first save holding at least one answer marks the
 * invite started (invite.started, once). The invite row is locked for the save, so a revoke
 * (which deletes the draft) or a submit in flight is never followed by a stray draft.
 */
export async function saveDraft(db: Db, deps: EmitDeps, input: SaveDraftInput): Promise<{ savedAt: Date }> {
  const found = await findInviteByToken(db, input.token);
  const now = deps.clock.now();
  assertWritable(found, now);
  const sectionIndex = input.sectionIndex ?? 0;
  if (!Number.isInteger(sectionIndex) || sectionIndex < 0 || sectionIndex > MAX_SECTION_INDEX) {
    throw validationError([{ path: 'sectionIndex', code: 'invalid_value', message: `sectionIndex must be an integer from 0 to ${MAX_SECTION_INDEX}.` }]);
  }
  const answers = acceptAnswers(found.form.content, input.answers, { partial: true });
  const { invite } = found;
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: invites.id })
      .from(invites)
      .where(and(eq(invites.id, invite.id), liveInvite(now)))
      .for('no key update');
    // Revoked, answered or expired since it was read: the same refusal as if it had been first.
    if (!locked) await refuseChanged(tx, input.token, now);
    const [saved] = await tx
      .insert(inviteDrafts)
      .values({ inviteId: invite.id, companyId: invite.companyId, answers, sectionIndex, savedAt: now })
      .onConflictDoUpdate({
        target: [inviteDrafts.companyId, inviteDrafts.inviteId],
        set: { answers: sql`excluded.answers`, sectionIndex: sql`excluded.section_index`, savedAt: sql`excluded.saved_at` },
      })
      .returning({ savedAt: inviteDrafts.savedAt });
    if (invite.startedAt === null && Object.values(answers).some(isAnswered)) await stampStage(tx, deps, invite.id, 'started');
    return { savedAt: saved.savedAt };
  });
}
