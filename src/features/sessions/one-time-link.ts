import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import { oneTimeLinks, type LinkPurpose } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { hashSecret, mintSecret, SECRET_RE } from '../../lib/secret-token.js';

/** How long a link lives: 30 minutes; an invitation 7 days (shared design, "Sessions and security rules"). */
export const LINK_TTL_MS: Record<LinkPurpose, number> = { set_password: 30 * 60 * 1000, sign_in: 30 * 60 * 1000, invitation: 7 * 24 * 60 * 60 * 1000 };

/** The panel page each link opens; the token rides in the fragment, so it never reaches a server log. */
const LINK_PAGE: Record<LinkPurpose, string> = { set_password: 'set-password', sign_in: 'link', invitation: 'accept' };

export function linkUrl(publicPanelUrl: string, purpose: LinkPurpose, token: string): string {
  return `${publicPanelUrl}/${LINK_PAGE[purpose]}#token=${token}`;
}

export interface IssueLinkInput {
  purpose: LinkPurpose;
  userId: string | null;
  companyId?: string | null;
  details?: Record<string, unknown>;
}

/** Mints a one-time link token (shown once: only its hash is stored). */
export async function issueLink(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: IssueLinkInput) {
  const now = deps.clock.now();
  const token = mintSecret();
  const [row] = await db
    .insert(oneTimeLinks)
    .values({
      id: deps.newId(),
      tokenHash: hashSecret(token),
      purpose: input.purpose,
      userId: input.userId,
      companyId: input.companyId ?? null,
      details: input.details ?? {},
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_TTL_MS[input.purpose]),
    })
    .returning();
  return { token, link: row };
}

/**
 * Uses a link: one conditional UPDATE marks it used, so of two racing requests only one gets the row.
 * Null when the token is unknown, of another purpose, used or expired.
 */
export async function consumeLink(db: DbOrTx, deps: { clock: Clock }, input: { token: string; purpose: LinkPurpose }) {
  if (!SECRET_RE.test(input.token)) return null;
  const now = deps.clock.now();
  const [row] = await db
    .update(oneTimeLinks)
    .set({ usedAt: now })
    .where(and(eq(oneTimeLinks.tokenHash, hashSecret(input.token)), eq(oneTimeLinks.purpose, input.purpose), isNull(oneTimeLinks.usedAt), gt(oneTimeLinks.expiresAt, now)))
    .returning();
  return row ?? null;
}
