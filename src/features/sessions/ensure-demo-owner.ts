import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { recordAudit } from '../audit/index.js';
import { addMembership } from '../memberships/index.js';
import { createUser } from './create-user.js';
import { issueLink, linkUrl } from './one-time-link.js';
import { findUserByEmail } from './sign-in.js';

export const DEMO_OWNER_EMAIL = 'owner@demo.school';

/**
 * The demo company's owner, created once, with no password: the first start prints a one-time
 * sign-in link (30 minutes) instead, so no password ever reaches a log. Later starts get null:
 * the owner then sets a password through "forgot password" (the mail lands in the dev mailbox).
 */
export async function ensureDemoOwner(db: Db, deps: { clock: Clock; newId: IdGenerator; config: { publicPanelUrl: string } }, input: { companyId: string }) {
  return db.transaction(async (tx) => {
    if (await findUserByEmail(tx, DEMO_OWNER_EMAIL)) return { email: DEMO_OWNER_EMAIL, signInUrl: null };
    const user = await createUser(tx, deps, { email: DEMO_OWNER_EMAIL, name: 'Demo Owner' });
    await addMembership(tx, deps, { companyId: input.companyId, userId: user.id, permissions: [], owner: true });
    await recordAudit(tx, deps, { companyId: input.companyId, actor: { userId: null, email: null }, action: 'member.added', details: { userId: user.id, email: user.email, owner: true, via: 'demo' }, ip: null });
    const { token } = await issueLink(tx, deps, { purpose: 'sign_in', userId: user.id });
    return { email: DEMO_OWNER_EMAIL, signInUrl: linkUrl(deps.config.publicPanelUrl, 'sign_in', token) };
  });
}

/** The banner lines about the panel: its address, and the one-time link when there is one. */
export function demoPanelLines(publicPanelUrl: string, owner: { email: string; signInUrl: string | null }): string[] {
  return owner.signInUrl
    ? [`  Panel:         ${publicPanelUrl}`, `  Sign in once (demo owner ${owner.email}; the link works once, for 30 minutes):`, `                 ${owner.signInUrl}`]
    : [`  Panel:         ${publicPanelUrl}  (demo owner ${owner.email}: "Forgot password" mails a link to the dev mailbox)`];
}
