import { Type, type Static } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { ApiError, validationError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';
import { hashSecret, SECRET_RE } from '../../lib/secret-token.js';
import { recordAudit } from '../audit/index.js';
import {
  checkSecondFactor, createUser, takeSignInAttempt, type BudgetDeps, CreateUserInput, hashPassword, passwordMatches, SIGN_IN_REFUSED, startSession, type SecondFactorDeps,
} from '../sessions/index.js';
import { addMembership } from '../memberships/index.js';

export const AcceptInvitationInput = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 100, description: 'The #token= of the accept link' }),
    name: Type.String({ maxLength: 200, description: 'Your name, for a new account (an existing account keeps its own)' }),
    password: Type.String({ minLength: 1, maxLength: 200, description: 'A new password (10 to 200 characters), or the password of the account you already have' }),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The TOTP or a recovery code, when that existing account has a second factor' })),
  },
  { additionalProperties: false },
);
export type AcceptInvitationInput = Static<typeof AcceptInvitationInput>;

type PendingInvitation = {
  id: string;
  company_id: string;
  email: string;
  permissions: string[];
  owner: boolean;
  invited_by: string | null;
};

const invalidLink = () =>
  validationError([fieldError('token', 'invalid_value', 'This invitation link is not valid: it was already used, cancelled, or it expired. Ask for a new one.')], 'The invitation link is not valid.');

/**
 * Accepts a colleague's invitation and signs them in, in the invited company. A new address becomes an
 * account with the given name and password; an address that already has an account proves it with
 * that account's password (and second factor), and gains the membership. The link works once.
 */
export async function acceptInvitation(db: Db, deps: { clock: Clock; newId: IdGenerator } & SecondFactorDeps & BudgetDeps, input: AcceptInvitationInput & { ip: string | null; userAgent: string | null; replacesToken?: string | null }) {
  if (!SECRET_RE.test(input.token)) throw invalidLink();
  return db.transaction(async (tx) => {
    const now = deps.clock.now();
    const { rows } = await tx.execute<PendingInvitation>(sql`
      SELECT id, company_id, email, permissions, owner, invited_by FROM member_invitations
       WHERE token_hash = ${hashSecret(input.token)} AND accepted_at IS NULL AND cancelled_at IS NULL AND expires_at > ${now}
       FOR UPDATE`);
    const invitation = rows[0];
    if (!invitation) throw invalidLink();
    const { rows: existing } = await tx.execute<{ id: string; email: string; password_hash: string | null }>(sql`
      SELECT id, email, password_hash FROM users WHERE lower(email) = lower(${invitation.email}) FOR UPDATE`);
    let user = existing[0] ?? null;
    if (user?.password_hash === null) {
      // An account that never set a password (created by the CLI): the link proves the address, as a set-password link does.
      const fields = schemaErrors(CreateUserInput, { email: user.email, name: input.name, password: input.password });
      if (fields.length) throw validationError(fields);
      await tx.execute(sql`UPDATE users SET name = ${input.name.trim()}, password_hash = ${await hashPassword(input.password)}, updated_at = ${now} WHERE id = ${user.id}`);
    } else if (user) {
      // an existing account's password is guessed here as at sign-in: the same budget
      const attempt = await takeSignInAttempt(deps, { ip: input.ip, email: user.email });
      if (!(await passwordMatches(user.password_hash, input.password))) throw new ApiError('UNAUTHORIZED', SIGN_IN_REFUSED, { existingAccount: true });
      await attempt.release();
      await checkSecondFactor(tx, deps, { userId: user.id, code: input.code });
    } else {
      const created = await createUser(tx, deps, { email: invitation.email, name: input.name, password: input.password });
      user = { id: created.id, email: created.email, password_hash: null };
    }
    const { rows: memberships } = await tx.execute(sql`SELECT 1 FROM memberships WHERE company_id = ${invitation.company_id} AND user_id = ${user.id}`);
    if (memberships.length === 0) {
      await addMembership(tx, deps, { companyId: invitation.company_id, userId: user.id, permissions: invitation.permissions as never, owner: invitation.owner });
    }
    await tx.execute(sql`UPDATE member_invitations SET accepted_at = ${now} WHERE id = ${invitation.id}`);
    const started = await startSession(tx, deps, { userId: user.id, ip: input.ip, userAgent: input.userAgent, replacesToken: input.replacesToken, companyId: invitation.company_id });
    await recordAudit(tx, deps, {
      companyId: invitation.company_id,
      actor: { userId: user.id, email: user.email },
      action: 'member.added',
      details: { userId: user.id, email: user.email, owner: invitation.owner, permissions: invitation.permissions, invitationId: invitation.id, invitedBy: invitation.invited_by, newAccount: existing.length === 0 },
      ip: input.ip,
    });
    return started;
  });
}
