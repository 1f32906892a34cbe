import { and, eq } from 'drizzle-orm';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { inviteDrafts } from '../../platform/db/schema.js';

/**
 * Drops an invite's saved draft (on submit and on revoke: a dead link keeps no answers). The
 * respondent saves and reads drafts; their end is the invite's, so revoking needs no respondent code.
 */
export async function deleteDraft(tx: DbOrTx, _deps: NoDeps, input: { companyId: string; inviteId: string }): Promise<void> {
  const { companyId, inviteId } = input;
  await tx.delete(inviteDrafts).where(and(eq(inviteDrafts.companyId, companyId), eq(inviteDrafts.inviteId, inviteId)));
}
