import { Type } from '@sinclair/typebox';
import { PERMISSIONS } from '../memberships/index.js';

/** A set of permission names (repeats forgiven, bounded). */
export const PermissionList = Type.Array(Type.Union(PERMISSIONS.map((permission) => Type.Literal(permission))), { maxItems: PERMISSIONS.length * 2 });

/** Who performs a member-management act, as the audit record names them. */
export interface Actor {
  userId: string;
  email: string;
  ip: string | null;
}
