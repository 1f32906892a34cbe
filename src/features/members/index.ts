/** The members feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { PERMISSIONS, isPermission, grantedPermissions, type Permission } from './permissions.js';
export { addMembership, AddMembershipInput } from './add-membership.js';
export { listUserMemberships, findMembership, type MembershipView } from './find-memberships.js';
