/**
 * The panel's permission vocabulary (docs: shared design, "Permissions"). A member holds any subset;
 * an owner holds all of them and manages members.
 */
export const PERMISSIONS = ['integrations', 'forms', 'invites', 'responses', 'rosters', 'treatments', 'settings'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** What a membership grants: every permission for an owner, its own set otherwise (unknown names dropped). */
export function grantedPermissions(membership: { owner: boolean; permissions: readonly string[] }): Permission[] {
  return membership.owner ? [...PERMISSIONS] : PERMISSIONS.filter((permission) => membership.permissions.includes(permission));
}
