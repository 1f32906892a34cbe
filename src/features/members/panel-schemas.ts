import { Type } from '@sinclair/typebox';
import { Email } from '../sessions/index.js';
import { PermissionList } from './member-input.js';
import { PERMISSIONS } from '../memberships/index.js';

const PermissionName = Type.Union(PERMISSIONS.map((permission) => Type.Literal(permission)));

export const Member = Type.Object(
  {
    userId: Type.String({ format: 'uuid' }),
    email: Type.String(),
    name: Type.String(),
    owner: Type.Boolean({ description: 'Owners hold every permission and manage members' }),
    permissions: Type.Array(PermissionName, { description: 'What the member may do (all of them for an owner)' }),
    secondFactor: Type.Boolean({ description: 'Whether the member signs in with a TOTP code' }),
    joinedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Member' },
);

export const Invitation = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    owner: Type.Boolean(),
    permissions: Type.Array(PermissionName),
    invitedBy: Type.Union([Type.Object({ userId: Type.String({ format: 'uuid' }), email: Type.String() }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The link works until then (7 days), once' }),
  },
  { title: 'Invitation' },
);

export const MemberParams = Type.Object({ userId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const InvitationParams = Type.Object({ invitationId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const ChangeMemberBody = Type.Object(
  { permissions: PermissionList, owner: Type.Boolean() },
  { additionalProperties: false, description: 'The whole new set: permissions (ignored for an owner, who holds all) and the owner flag' },
);

export const InviteBody = Type.Object(
  { email: Email, permissions: PermissionList, owner: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);
