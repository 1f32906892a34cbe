import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database.js';
import type { EmitDeps } from '../events/index.js';
import { validationError } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { sqlArray } from '../../lib/sql-array.js';
import { deleteDraft } from './delete-draft.js';
import { moveInvites } from './lifecycle/move-invites.js';

export interface RevokeInvitesResult {
  /** The invites this call revoked. */
  revoked: string[];
  /** Selected invites left as they were: already revoked, responded or expired, or not of the form. */
  unchanged: string[];
}

/**
 * Revokes a selection of a form's invites in one transaction, as revokeInvite does one: links die,
 * pending messages are cancelled with their units returned, drafts deleted, invite.revoked emitted
 * once per invite. Invites that cannot be revoked (final, or not the form's) are left and listed.
 */
export async function revokeInvites(db: DbOrTx, deps: EmitDeps, input: { companyId: string; formId: string; inviteIds: string[] }): Promise<RevokeInvitesResult> {
  const { companyId, formId } = input;
  const invalid = input.inviteIds.flatMap((id, index) => (isUuid(id) ? [] : [{ path: `inviteIds.${index}`, code: 'invalid_format' as const, message: 'Not an invite id.' }]));
  if (invalid.length > 0) throw validationError(invalid);
  const ids = [...new Set(input.inviteIds)];
  return db.transaction(async (tx) => {
    const moved = await moveInvites(tx, deps, {
      move: 'revoked',
      targets: sql`(SELECT company_id, id AS invite_id FROM invites WHERE company_id = ${companyId} AND form_id = ${formId} AND id = ANY(${sqlArray('uuid', ids)}))`,
    });
    for (const invite of moved) await deleteDraft(tx, deps, { companyId, inviteId: invite.id });
    const revoked = new Set(moved.map((invite) => invite.id));
    return { revoked: ids.filter((id) => revoked.has(id)), unchanged: ids.filter((id) => !revoked.has(id)) };
  });
}
