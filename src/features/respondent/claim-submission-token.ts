import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.js';
import { publicLinkSubmissions } from '../../platform/db/schema.js';
import type { FormRecord } from '../forms/index.js';
import type { SubmissionToken } from './submission-token.js';

/**
 * Claims a public page's submission token in the caller's transaction: null when this submit is
 * the first (the caller records its response and calls recordTokenResponse), else the response of
 * the submit that used it first. A racing submit with the same token waits on the first one's
 * insert until that commits (then it reads its response) or rolls back (then it claims the token).
 */
export async function claimSubmissionToken(tx: Tx, _deps: unknown, input: { form: Pick<FormRecord, 'id' | 'companyId'>; token: SubmissionToken }): Promise<string | null> {
  const { form, token } = input;
  const claimed = await tx
    .insert(publicLinkSubmissions)
    .values({ companyId: form.companyId, nonce: token.nonce, formId: form.id, expiresAt: token.expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: publicLinkSubmissions.nonce });
  if (claimed.length > 0) return null;
  // A new statement: it sees the first submit's row as committed, response included.
  const [first] = await tx
    .select({ responseId: publicLinkSubmissions.responseId })
    .from(publicLinkSubmissions)
    .where(and(eq(publicLinkSubmissions.companyId, form.companyId), eq(publicLinkSubmissions.nonce, token.nonce)));
  return first.responseId;
}

/** Names the response of a token claimed in this transaction. */
export async function recordTokenResponse(tx: Tx, _deps: unknown, input: { companyId: string; nonce: string; responseId: string }): Promise<void> {
  await tx
    .update(publicLinkSubmissions)
    .set({ responseId: input.responseId })
    .where(and(eq(publicLinkSubmissions.companyId, input.companyId), eq(publicLinkSubmissions.nonce, input.nonce)));
}
