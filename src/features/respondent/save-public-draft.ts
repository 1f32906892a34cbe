import { createHash, randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../platform/db/database.js';
import { publicLinkDrafts } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { FormRecord } from '../forms/index.js';
import { acceptAnswers } from './answers.js';
import type { LinkPrefill } from './submission-token.js';

/** How long a resume link of a public link works. */
export const PUBLIC_DRAFT_DAYS = 30;

export const draftTokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Keeps a public link's answers so far behind a new resume token (answered to the person once,
 * stored as its hash only), for PUBLIC_DRAFT_DAYS. The answers are checked as an invite's draft
 * is (partial, shapes and bounds); files are left out: a public link's upload belongs to its page's
 * submission token and is removed once that expires, so the person attaches them again.
 */
export async function savePublicDraft(
  db: DbOrTx,
  deps: { clock: Clock },
  input: { form: FormRecord; answers: unknown; sectionIndex: number; prefill: LinkPrefill },
): Promise<{ token: string; expiresAt: Date }> {
  const { form } = input;
  const files = new Set(form.content.sections.flatMap((s) => s.questions.filter((q) => q.type === 'FILE').map((q) => q.id)));
  const accepted = acceptAnswers(form.content, input.answers, { partial: true });
  const answers = Object.fromEntries(Object.entries(accepted).filter(([id]) => !files.has(id)));
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(deps.clock.now().getTime() + PUBLIC_DRAFT_DAYS * 86_400_000);
  await db.insert(publicLinkDrafts).values({
    tokenHash: draftTokenHash(token),
    companyId: form.companyId,
    formId: form.id,
    answers,
    sectionIndex: input.sectionIndex,
    prefill: input.prefill as Record<string, unknown>,
    expiresAt,
  });
  return { token, expiresAt };
}
