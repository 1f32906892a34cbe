import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../../../lib/errors.js';
import { CursorMeta, errorResponsesOf } from '../envelope.js';

/**
 * Per-status error responses of a panel route. Any panel route may answer 401 (no session), 403
 * (a permission it lacks, or a CSRF refusal), 400 (the platform's input rules) and 429.
 */
export function panelErrorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  return errorResponsesOf(['UNAUTHORIZED', 'FORBIDDEN', 'VALIDATION_ERROR', 'RATE_LIMITED', 'INTERNAL_ERROR', ...codes]);
}

/** meta of a cursor-paged panel list: the /v1 shape, inline (the panel document registers no shared $id schemas). */
export const PanelCursorMeta = Type.Object(CursorMeta.properties);
