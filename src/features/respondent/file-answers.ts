import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { respondentUploads } from '../../platform/db/schema.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import { childPath, fieldError } from '../../lib/field-errors.js';
import { isUuid } from '../../lib/ids.js';
import type { Answers } from '../forms/index.js';
import { questionsOf } from '../forms/index.js';
import type { FormRecord } from '../forms/index.js';

interface FileAnswer {
  fileId: string;
  name: string;
  size: number;
  mime: string;
}

/** Whose uploads a submit may claim: the invite's, or those sent with the public page's submission token (none without one). */
export type UploadOwner = { inviteId: string } | { submissionNonce: string | null };

function ownedBy(owner: UploadOwner): SQL | undefined {
  if ('inviteId' in owner) return eq(respondentUploads.inviteId, owner.inviteId);
  if (owner.submissionNonce === null) return sql`false`;
  return and(isNull(respondentUploads.inviteId), eq(respondentUploads.submissionNonce, owner.submissionNonce));
}

/**
 * A FILE answer must name unused files uploaded to this form (through this invite on a personal
 * link, with the same submission token on the public link) exactly as stored: a page cannot point
 * a response at another respondent's file, reuse one, or restate its size or type. The files are
 * then marked as the response's (in the caller's transaction), so the upload prune keeps them.
 */
export async function claimFileAnswers(
  tx: DbOrTx,
  form: Pick<FormRecord, 'id' | 'companyId' | 'content'>,
  owner: UploadOwner,
  answers: Answers,
  responseId: string,
): Promise<void> {
  const given = questionsOf(form.content)
    .filter((question) => question.type === 'FILE' && Array.isArray(answers[question.id]))
    .flatMap((question) => (answers[question.id] as FileAnswer[]).map((file, index) => ({ file, path: childPath(childPath(`answers.${question.id}`, index), 'fileId') })));
  if (given.length === 0) return;
  const ids = [...new Set(given.map(({ file }) => file.fileId).filter(isUuid))];
  const stored = ids.length === 0 ? [] : await tx
    .update(respondentUploads)
    .set({ responseId })
    .where(
      and(
        eq(respondentUploads.companyId, form.companyId),
        eq(respondentUploads.formId, form.id),
        ownedBy(owner),
        isNull(respondentUploads.responseId),
        inArray(respondentUploads.id, ids),
      ),
    )
    .returning();
  const byId = new Map(stored.map((upload) => [upload.id, upload]));
  const errors: FieldError[] = given.flatMap(({ file, path }) => {
    const upload = byId.get(file.fileId);
    if (!upload) return [fieldError(path, 'unknown_reference', 'No unused file with this id was uploaded through this link.')];
    const same = upload.name === file.name && upload.size === file.size && upload.mime === file.mime;
    return same ? [] : [fieldError(path, 'invalid_value', 'name, size and mime must be those the upload answered.')];
  });
  if (errors.length > 0) throw validationError(errors, 'The answers are invalid.');
}
