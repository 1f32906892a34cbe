import type { FastifyRequest } from 'fastify';
import { ApiError, validationError } from '../../../lib/errors.js';
import { MAX_UPLOAD_BYTES } from '../upload-type.js';

const fileFault = (message: string, code: 'required' | 'invalid_format' | 'too_long' = 'invalid_format') =>
  validationError([{ path: 'file', code, message }]);

/** The multipart errors of @fastify/multipart and busboy as the contract's codes (never a 5xx). */
function uploadError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', `Files are limited to ${MAX_UPLOAD_BYTES} bytes.`, { limit: MAX_UPLOAD_BYTES });
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return fileFault('Send exactly one file part and nothing else.', 'too_long');
  return fileFault('The body is not a readable multipart/form-data upload.');
}

/** The one file of a multipart/form-data body, read whole (bounded by the parser's limits); any other part is refused. */
export async function readOneFile(request: FastifyRequest): Promise<{ name: string; mime: string; data: Buffer }> {
  if (!request.isMultipart()) throw fileFault('Send the file as multipart/form-data with one file part.', 'required');
  let file: { name: string; mime: string; data: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || file !== null) throw fileFault('Send exactly one file part and nothing else.', 'too_long');
      file = { name: part.filename, mime: part.mimetype, data: await part.toBuffer() };
    }
  } catch (err) {
    throw uploadError(err);
  }
  if (file === null) throw fileFault('The body holds no file part.', 'required');
  return file;
}
