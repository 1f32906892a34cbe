/**
 * Who belongs to which company with which permissions: the memberships' reads and writes and the
 * permission vocabulary, below both the sessions that sign members in and the members feature that
 * manages them (docs/CONTRIBUTING.md, "How a feature is laid out").
 */
export { PERMISSIONS, isPermission, grantedPermissions, type Permission } from './permissions.js';
export { addMembership, AddMembershipInput } from './add-membership.js';
export { listUserMemberships, findMembership, type MembershipView } from './find-memberships.js';
