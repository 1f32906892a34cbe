import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { publicLinkDrafts } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { Answers, FormRecord } from '../forms/index.js';
import { draftTokenHash } from './save-public-draft.js';
import type { LinkPrefill } from './submission-token.js';

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The answers a resume link keeps, for this company's form only and until it expires; anything
 * else (unknown, expired, another form's token, a malformed one) is null, with no hint which.
 */
export async function resumePublicDraft(
  db: DbOrTx,
  deps: { clock: Clock },
  input: { form: FormRecord; token: string },
): Promise<{ answers: Answers; sectionIndex: number; prefill: LinkPrefill; expiresAt: Date } | null> {
  if (!TOKEN_RE.test(input.token)) return null;
  const [row] = await db
    .select({ answers: publicLinkDrafts.answers, sectionIndex: publicLinkDrafts.sectionIndex, prefill: publicLinkDrafts.prefill, expiresAt: publicLinkDrafts.expiresAt })
    .from(publicLinkDrafts)
    .where(
      and(
        eq(publicLinkDrafts.tokenHash, draftTokenHash(input.token)),
        eq(publicLinkDrafts.companyId, input.form.companyId),
        eq(publicLinkDrafts.formId, input.form.id),
        gt(publicLinkDrafts.expiresAt, deps.clock.now()),
      ),
    );
  return row ? { answers: row.answers as Answers, sectionIndex: row.sectionIndex, prefill: row.prefill as LinkPrefill, expiresAt: row.expiresAt } : null;
}
