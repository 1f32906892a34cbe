import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { recordAudit } from '../audit/index.js';
import { addMembership, findMembership, type Permission } from '../memberships/index.js';
import { createUser } from './create-user.js';
import { issueLink, linkUrl } from './one-time-link.js';
import { findUserByEmail } from './sign-in.js';

export interface CreatePanelUserInput {
  companyId: string;
  email: string;
  name?: string;
  permissions: Permission[];
  owner: boolean;
  /** Who did it, for the audit record: null for the operator's CLI. */
  actor: { userId: string; email: string } | null;
}

/**
 * Makes an address a member of a company (creating its account when there is none) and, while the
 * account has no password, mints a set-password link (30 minutes) for the operator to hand over.
 * No password is ever chosen, shown or logged here.
 */
export async function createPanelUser(db: Db, deps: { clock: Clock; newId: IdGenerator; config: { publicPanelUrl: string } }, input: CreatePanelUserInput) {
  return db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, input.email);
    const user = existing ?? (await createUser(tx, deps, { email: input.email, name: input.name ?? input.email.split('@')[0] }));
    if (existing && (await findMembership(tx, deps, { userId: existing.id, companyId: input.companyId }))) {
      throw validationError([fieldError('email', 'not_unique', 'this address is already a member of the company')]);
    }
    await addMembership(tx, deps, { companyId: input.companyId, userId: user.id, permissions: input.permissions, owner: input.owner });
    await recordAudit(tx, deps, {
      companyId: input.companyId,
      actor: { userId: input.actor?.userId ?? null, email: input.actor?.email ?? null },
      action: 'member.added',
      details: { userId: user.id, email: user.email, owner: input.owner, permissions: input.owner ? 'all' : input.permissions, via: input.actor ? 'panel' : 'cli' },
      ip: null,
    });
    if (user.passwordHash) return { user, created: !existing, setPasswordUrl: null };
    const { token } = await issueLink(tx, deps, { purpose: 'set_password', userId: user.id, details: { reason: 'welcome' } });
    return { user, created: !existing, setPasswordUrl: linkUrl(deps.config.publicPanelUrl, 'set_password', token) };
  });
}
