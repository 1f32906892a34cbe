import type { Tx } from '../../platform/db/database.js';
import { responseCreatedData } from '../events/index.js';
import { emitEvent, type EmitDeps } from '../events/index.js';
import type { FormRecord } from '../forms/index.js';
import { recordResponse, type RecordResponseDeps, type RecordResponseInput } from '../responses/index.js';
import type { OrgSource } from '../events/index.js';

export type SubmissionDeps = RecordResponseDeps & EmitDeps;

/**
 * A respondent's submission becoming a response: recordResponse (which runs the response
 * consumers) and response.created with the spec's full data, in the caller's transaction.
 */
export async function recordSubmission(tx: Tx, deps: SubmissionDeps, input: RecordResponseInput & { form: FormRecord }) {
  const { form } = input;
  const response = await recordResponse(tx, deps, input);
  const data = responseCreatedData({
    formId: form.id,
    formName: form.name,
    formSlug: form.slug,
    responseId: response.id,
    inviteId: response.inviteId,
    completedAt: response.completedAt,
    respondent: response.respondent,
    answers: response.answers,
    dims: response.dims,
    orgUnitId: response.orgUnitId,
    orgPath: response.orgPath,
    orgSource: response.orgSource as OrgSource,
  });
  await emitEvent(tx, deps, { companyId: form.companyId, type: 'response.created', data });
  return response;
}
