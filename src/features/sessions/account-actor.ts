/** Who acts on their own account, as the audit record names them (the session's current company, if any). */
export interface AccountActor {
  userId: string;
  email: string;
  companyId: string | null;
  ip: string | null;
}

export const auditActor = (actor: AccountActor) => ({ userId: actor.userId, email: actor.email });
