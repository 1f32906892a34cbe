import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../platform/db/database.js';
import { validationError } from '../../lib/errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { acceptAnswers } from './answers.js';
import { claimSubmissionToken, recordTokenResponse } from './claim-submission-token.js';
import { claimFileAnswers } from './file-answers.js';
import { loadPublicForm, type PublicFormInput } from './load-public-form.js';
import { presentedOrder } from './presented-order.js';
import { recordSubmission, type SubmissionDeps } from './record-submission.js';
import { answerDims, linkDims } from './response-dims.js';
import { readSubmissionToken, submissionTokenRefused, type SubmissionTokenDeps } from './submission-token.js';

/** Who answered, as the public link's prefill says (name, email, phone, externalId query parameters). */
export const PrefillRespondentSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    phone: Type.Optional(Type.String({ maxLength: 32 })),
    externalId: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type PrefillRespondent = Static<typeof PrefillRespondentSchema>;

export interface SubmitPublicInput extends PublicFormInput {
  answers: unknown;
  respondent?: unknown;
  /** dim key → value (an entity's id or code, a number, a date): only dims with source link. */
  dims?: unknown;
  /** The page's one-time token (optional on the API): a second submit with it answers the first response. */
  submissionToken?: string;
}

export interface PublicSubmission {
  responseId: string;
  /** true: the token had already submitted; nothing was stored and responseId is that first response */
  replayed: boolean;
}

/** Blank prefill fields are absent ones; a prefill of nothing is an anonymous respondent. */
function prefillRespondent(given: PrefillRespondent | undefined) {
  const fields = Object.entries(given ?? {}).flatMap(([key, value]) => (value.trim() === '' ? [] : [[key, value.trim()]]));
  return fields.length === 0 ? null : Object.fromEntries(fields);
}

/**
 * Finalizes a public link: the respondent and dims come from the prefill (dims made canonical:
 * entity code or id; orgSource link when the unit came from it, else an answered unit), answers to
 * hidden questions dropped. The response and response.created (inviteId null) in one transaction.
 * With a submission token: once per token (claim-submission-token.ts), and FILE answers may name the
 * files uploaded with that token; without one, a FILE answer can name no public upload.
 */
export async function submitPublic(db: Db, deps: SubmissionDeps & SubmissionTokenDeps, input: SubmitPublicInput): Promise<PublicSubmission> {
  const { form } = await loadPublicForm(db, deps, input);
  const token = input.submissionToken === undefined ? null : readSubmissionToken(deps, form.id, input.submissionToken);
  if (input.submissionToken !== undefined && !token) throw submissionTokenRefused('submissionToken', false);
  const respondentErrors = input.respondent === undefined ? [] : schemaErrors(PrefillRespondentSchema, input.respondent, 'respondent');
  if (respondentErrors.length > 0) throw validationError(respondentErrors, 'The respondent is invalid.');
  const answers = acceptAnswers(form.content, input.answers);
  const fromLink = await linkDims(db, form, input.dims);
  return db.transaction(async (tx) => {
    if (token) {
      const first = await claimSubmissionToken(tx, deps, { form, token });
      if (first !== null) return { responseId: first, replayed: true };
      if (token.expired) throw submissionTokenRefused('submissionToken', true);
    }
    const fromAnswers = await answerDims(tx, form, answers);
    const response = await recordSubmission(tx, deps, {
      form,
      answers,
      dims: { ...fromLink.dims, ...fromAnswers.dims },
      respondent: prefillRespondent(input.respondent as PrefillRespondent | undefined),
      org: fromLink.org ?? fromAnswers.org,
      // the order the token's page showed; a submit without a page token saw no rendered order
      presentedOrder: token ? presentedOrder(form.content, token.nonce) : null,
    });
    await claimFileAnswers(tx, form, { submissionNonce: token?.nonce ?? null }, answers, response.id);
    if (token) await recordTokenResponse(tx, deps, { companyId: form.companyId, nonce: token.nonce, responseId: response.id });
    return { responseId: response.id, replayed: false };
  });
}
