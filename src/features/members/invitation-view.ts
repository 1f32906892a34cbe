import type { Permission } from '../memberships/index.js';
import { grantedPermissions } from '../memberships/index.js';

/** How long a colleague's invitation link stays good (shared design: invitations 7 days). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type InvitationRow = {
  id: string;
  company_id: string;
  email: string;
  permissions: string[];
  owner: boolean;
  invited_by: string | null;
  inviter_email: string | null;
  // raw SQL hands timestamptz over as text
  created_at: string;
  expires_at: string;
};

export interface Invitation {
  id: string;
  email: string;
  owner: boolean;
  permissions: Permission[];
  invitedBy: { userId: string; email: string } | null;
  createdAt: string;
  expiresAt: string;
}

export function invitationView(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    owner: row.owner,
    permissions: grantedPermissions(row),
    invitedBy: row.invited_by && row.inviter_email ? { userId: row.invited_by, email: row.inviter_email } : null,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}
