import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../platform/config.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';

/**
 * The one-time submission token of a rendered public link: base64url(JSON) + "." + base64url(HMAC-SHA256
 * with the service's secret key). It binds the form, a random nonce (the submission's identity: its
 * uploads and its one response), an expiry, and on the pages the link's prefill, so a page posted
 * from elsewhere can neither forge a prefill nor submit twice. Nothing is stored until it is used.
 */
export interface LinkPrefill {
  respondent?: Record<string, string>;
  dims?: Record<string, string>;
}

export interface SubmissionTokenDeps {
  clock: Clock;
  config: Pick<Config, 'secretKey' | 'publicLinkTokenHours'>;
}

export interface SubmissionToken {
  token: string;
  nonce: string;
  expiresAt: Date;
  prefill: LinkPrefill;
}

interface Payload {
  f: string;
  n: string;
  e: number;
  p?: LinkPrefill;
}

/** Longer than any token this service issues (a prefill is bounded by the URL that carried it). */
export const MAX_TOKEN_LENGTH = 24 * 1024;

// A context string keeps these MACs apart from the cursors', which use the same secret.
const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`quorum submission token v1\n${body}`).digest('base64url');

export function issueSubmissionToken(deps: SubmissionTokenDeps, input: { formId: string; prefill?: LinkPrefill }): SubmissionToken {
  const expiresAt = new Date(deps.clock.now().getTime() + deps.config.publicLinkTokenHours * 3_600_000);
  const nonce = randomBytes(16).toString('base64url');
  const prefill = input.prefill ?? {};
  const payload: Payload = { f: input.formId, n: nonce, e: expiresAt.getTime(), ...(prefill.respondent || prefill.dims ? { p: prefill } : {}) };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { token: `${body}.${mac(deps.config.secretKey, body)}`, nonce, expiresAt, prefill };
}

/** The token as issued for this form (expired ones too: a used one still names its response), or null when forged, altered or another form's. */
export function readSubmissionToken(deps: SubmissionTokenDeps, formId: string, token: string): (SubmissionToken & { expired: boolean }) | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [body, tag, extra] = token.split('.');
  if (!body || !tag || extra !== undefined) return null;
  const given = Buffer.from(tag);
  const expected = Buffer.from(mac(deps.config.secretKey, body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  if (payload.f !== formId) return null;
  const expiresAt = new Date(payload.e);
  return { token, nonce: payload.n, expiresAt, prefill: payload.p ?? {}, expired: expiresAt.getTime() <= deps.clock.now().getTime() };
}

/** The refusal of a token that is not this form's, or has expired (VALIDATION_ERROR on `path`). */
export function submissionTokenRefused(path: string, expired: boolean) {
  return validationError(
    [{ path, code: 'invalid_value', message: expired ? 'The submission token has expired: open the form again.' : 'Not a submission token of this form.' }],
    'The submission token is not valid.',
  );
}
