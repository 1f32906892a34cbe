import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { Config } from '../../platform/config.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { sqlArray } from '../../lib/sql-array.js';
import { recordAudit } from '../audit/index.js';
import { sendMail, type SendMailDeps } from '../messaging/index.js';
import { Email } from '../sessions/index.js';
import { hashSecret, mintSecret } from '../../lib/secret-token.js';
import { invitationMail } from './invitation-mail.js';
import { INVITATION_TTL_MS, invitationView, type Invitation, type InvitationRow } from './invitation-view.js';
import { SELECT_INVITATIONS } from './list-invitations.js';
import { PermissionList, type Actor } from './member-input.js';
import { PERMISSIONS } from '../memberships/index.js';

export const InviteColleagueInput = Type.Object(
  {
    companyId: Type.String(),
    email: Email,
    permissions: PermissionList,
    owner: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type InviteColleagueInput = Static<typeof InviteColleagueInput>;

export type InviteDeps = SendMailDeps & { clock: Clock; newId: IdGenerator; config: Pick<Config, 'publicPanelUrl'> };

/** The accept page's address; the token rides in the fragment, so no server or log ever sees it. */
export const acceptLink = (publicPanelUrl: string, token: string) => `${publicPanelUrl.replace(/\/+$/, '')}/accept#token=${token}`;

/**
 * Invites a colleague by e-mail with a set of permissions (or as an owner). A newer invitation to the
 * same address replaces a pending one; a current member cannot be invited again. The link is mailed
 * after the invitation is committed (nothing leaves the process inside a transaction).
 */
export async function inviteColleague(db: DbOrTx, deps: InviteDeps, input: InviteColleagueInput & { actor: Actor & { name: string } }): Promise<Invitation> {
  const { actor, ...invite } = input;
  const fields = schemaErrors(InviteColleagueInput, invite);
  if (fields.length) throw validationError(fields);
  const email = invite.email.trim();
  const owner = invite.owner ?? false;
  const token = mintSecret();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const { invitation, companyName } = await db.transaction(async (tx) => {
    const { rows: members } = await tx.execute(sql`
      SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.company_id = ${invite.companyId} AND lower(u.email) = lower(${email})`);
    if (members.length > 0) throw validationError([fieldError('email', 'not_unique', 'This person is already a member of the company.')]);
    await tx.execute(sql`
      UPDATE member_invitations SET cancelled_at = ${now}
       WHERE company_id = ${invite.companyId} AND lower(email) = lower(${email}) AND accepted_at IS NULL AND cancelled_at IS NULL`);
    const id = deps.newId();
    const permissions = owner ? [...PERMISSIONS] : PERMISSIONS.filter((p) => invite.permissions.includes(p));
    await tx.execute(sql`
      INSERT INTO member_invitations (id, company_id, email, permissions, owner, token_hash, invited_by, created_at, expires_at)
      VALUES (${id}, ${invite.companyId}, ${email}, ${sqlArray('text', permissions)}, ${owner}, ${hashSecret(token)}, ${actor.userId}, ${now}, ${expiresAt})`);
    await recordAudit(tx, deps, {
      companyId: invite.companyId,
      actor: { userId: actor.userId, email: actor.email },
      action: 'member.invited',
      details: { invitationId: id, email, owner, permissions },
      ip: actor.ip,
    });
    const { rows } = await tx.execute<InvitationRow & { company_name: string }>(sql`
      SELECT q.*, c.name AS company_name FROM (${SELECT_INVITATIONS} WHERE i.id = ${id}) q JOIN companies c ON c.id = q.company_id`);
    return { invitation: invitationView(rows[0]), companyName: rows[0].company_name };
  });
  await sendMail(db, deps, invitationMail({ to: email, companyName, inviterName: actor.name, link: acceptLink(deps.config.publicPanelUrl, token), expiresAt }));
  return invitation;
}
