import type { Db } from '../../platform/db/database.js';
import { acceptAnswers } from './answers.js';
import { deleteDraft } from '../invites/index.js';
import { claimFileAnswers } from './file-answers.js';
import { assertWritable, findInviteByToken, refuseChanged } from './find-invite.js';
import { stampStage } from './invite-stage.js';
import { presentedOrder } from './presented-order.js';
import { recordSubmission, type SubmissionDeps } from './record-submission.js';
import { answerDims, declaredDims } from './response-dims.js';

export interface SubmitInviteInput {
  token: string;
  answers: unknown;
}

/**
 * Finalizes a personal link: answers to hidden questions dropped, the rest validated as
 * recordResponse does; the respondent comes FROM THE INVITE (never the page), dims from the invite
 * (and from answers for dims with source answer), the org from the invite's unit (orgSource
 * invite), else an answered unit (answer), else none. In one transaction: the invite moves to
 * responded (the conditional UPDATE decides which of racing submits wins: the others get
 * ALREADY_RESPONDED), the draft is deleted, recordResponse runs, invite.responded and
 * response.created are emitted.
 */
export async function submitInvite(db: Db, deps: SubmissionDeps, input: SubmitInviteInput): Promise<{ responseId: string }> {
  const { invite, form } = await findInviteByToken(db, input.token);
  const now = deps.clock.now();
  assertWritable({ invite, form }, now);
  const answers = acceptAnswers(form.content, input.answers);
  return db.transaction(async (tx) => {
    // The invite read above is the one stamped: name, contact, dims and unit never change after creation.
    const responded = await stampStage(tx, deps, invite.id, 'responded');
    if (!responded) return refuseChanged(tx, input.token, now);
    // Before the response: its insert locks the form's row (the response count) until commit, and
    // every other submit of the form waits on it, so the statements after it are kept to the few it needs.
    await deleteDraft(tx, deps, { companyId: invite.companyId, inviteId: invite.id });
    const fromAnswers = await answerDims(tx, form, answers);
    const org = invite.orgUnitId && invite.orgPath ? { unitId: invite.orgUnitId, path: invite.orgPath, source: 'invite' as const } : fromAnswers.org;
    const response = await recordSubmission(tx, deps, {
      form,
      answers,
      dims: { ...declaredDims(form, invite.dims, 'invite'), ...fromAnswers.dims },
      respondent: { name: invite.name, email: invite.email, phone: invite.phone, externalId: invite.externalId },
      inviteId: invite.id,
      org,
      presentedOrder: presentedOrder(form.content, invite.id),
    });
    await claimFileAnswers(tx, form, { inviteId: invite.id }, answers, response.id);
    return { responseId: response.id };
  });
}
