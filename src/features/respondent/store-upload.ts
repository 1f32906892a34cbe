import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/database.js';
import { respondentUploads } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError, validationError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { questionsOf } from '../forms/index.js';
import type { FormRecord } from '../forms/index.js';
import { assertWritable, findInviteByToken } from './find-invite.js';
import { loadPublicForm, type PublicFormInput } from './load-public-form.js';
import { readSubmissionToken, submissionTokenRefused } from './submission-token.js';
import { checkUploadBudget, sourceKeyOf } from './upload-budget.js';
import { bareMime, contentMatches, MAX_UPLOAD_BYTES, UPLOAD_MIME_TYPES } from './upload-type.js';

export interface UploadDeps {
  clock: Clock;
  newId: IdGenerator;
  config: Pick<Config, 'dataDir' | 'secretKey' | 'publicLinkTokenHours' | 'uploadLimits'>;
}

export interface StoreUploadInput {
  /** A personal link's token, or the public link's pair with the submission token of its page. */
  token?: string;
  form?: PublicFormInput & { submissionToken: string | undefined };
  /** The client address: the hourly caps count per address. */
  source: string;
  file: { name: string; mime: string; data: Buffer };
}

/** What a FILE answer holds: `{ fileId, name, size, mime }`. */
export interface StoredUpload {
  fileId: string;
  name: string;
  size: number;
  mime: string;
}

/** The directory of a company's uploads under the data directory. */
export function uploadDir(dataDir: string, companyId: string): string {
  return join(dataDir, 'uploads', companyId);
}

/** A display name without any path, control characters or excess length ("file" when nothing is left). */
function safeName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

interface Target {
  form: FormRecord;
  inviteId: string | null;
  submissionNonce: string | null;
}

/** The form and who may claim the file: the invite, or the public link's page (its unexpired submission token). */
async function target(db: Db, deps: UploadDeps, input: StoreUploadInput): Promise<Target> {
  if (input.token !== undefined) {
    const found = await findInviteByToken(db, input.token);
    assertWritable(found, deps.clock.now());
    return { form: found.form, inviteId: found.invite.id, submissionNonce: null };
  }
  if (!input.form) throw new TypeError('storeUpload needs a token or a public form');
  const { form } = await loadPublicForm(db, deps, input.form);
  const token = input.form.submissionToken === undefined ? null : readSubmissionToken(deps, form.id, input.form.submissionToken);
  if (!token || token.expired) throw submissionTokenRefused('submissionToken', token?.expired ?? false);
  return { form, inviteId: null, submissionNonce: token.nonce };
}

/**
 * Keeps a file for a FILE answer under the data directory (uploads/<companyId>/<fileId>, mode
 * 0600) and records it for the form (and the invite, or the public page's submission token).
 * Refused: a form without a FILE question, an empty or too large file, a type outside the
 * accepted list or content that is not of the type claimed, and past the upload limits
 * (upload-budget.ts). The content is never served back to the public. The file is written inside
 * the row's transaction and removed again if the row does not commit, so no row names a missing file.
 */
export async function storeUpload(db: Db, deps: UploadDeps, input: StoreUploadInput): Promise<StoredUpload> {
  const { form, inviteId, submissionNonce } = await target(db, deps, input);
  if (!questionsOf(form.content).some((question) => question.type === 'FILE')) {
    throw validationError([{ path: 'file', code: 'not_applicable', message: 'This form has no file question.' }]);
  }
  const { data } = input.file;
  if (data.length > MAX_UPLOAD_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `Files are limited to ${MAX_UPLOAD_BYTES} bytes.`, { limit: MAX_UPLOAD_BYTES });
  }
  if (data.length === 0) throw validationError([{ path: 'file', code: 'required', message: 'The file is empty.' }]);
  const mime = bareMime(input.file.mime);
  if (!UPLOAD_MIME_TYPES.includes(mime)) {
    throw validationError([{ path: 'file', code: 'invalid_value', message: `Accepted file types: ${UPLOAD_MIME_TYPES.join(', ')}.` }]);
  }
  if (!contentMatches(mime, data)) throw validationError([{ path: 'file', code: 'invalid_format', message: `The content is not ${mime}.` }]);
  const upload = { id: deps.newId(), name: safeName(input.file.name), mime, size: data.length };
  const dir = uploadDir(deps.config.dataDir, form.companyId);
  const path = join(dir, upload.id);
  const sourceKey = sourceKeyOf(deps.config.secretKey, input.source);
  try {
    await db.transaction(async (tx) => {
      await checkUploadBudget(tx, deps, { companyId: form.companyId, formId: form.id, sourceKey, size: data.length });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(`${path}.part`, data, { mode: 0o600 });
      await rename(`${path}.part`, path);
      await tx.insert(respondentUploads).values({
        ...upload,
        companyId: form.companyId,
        formId: form.id,
        inviteId,
        submissionNonce,
        sourceKey,
        sha256: createHash('sha256').update(data).digest('hex'),
        createdAt: deps.clock.now(),
      });
    });
  } catch (err) {
    await rm(`${path}.part`, { force: true });
    await rm(path, { force: true });
    throw err;
  }
  return { fileId: upload.id, name: upload.name, size: upload.size, mime: upload.mime };
}
