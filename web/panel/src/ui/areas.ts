import type { Permission } from '../api/client';

/** The areas of the navigation and the permission each needs (null: any member of the company; undefined: anyone signed in). */
export const AREAS = [
  // design: "responses" sees the list of forms; "forms" opens the builder and changes them
  { path: '/forms', permission: 'responses', label: 'nav.forms' },
  { path: '/invites', permission: 'invites', label: 'nav.invites' },
  { path: '/responses', permission: 'responses', label: 'nav.responses' },
  { path: '/statistics', permission: 'responses', label: 'nav.statistics' },
  { path: '/treatments', permission: 'treatments', label: 'nav.treatments' },
  { path: '/rosters', permission: 'rosters', label: 'nav.rosters' },
  { path: '/integrations', permission: 'integrations', label: 'nav.integrations' },
  { path: '/settings', permission: 'settings', label: 'nav.settings' },
  // design: "settings" grants members and the audit log; owners hold every permission
  { path: '/members', permission: 'settings', label: 'nav.members' },
  { path: '/account', permission: undefined, label: 'nav.account' },
] as const satisfies readonly { path: string; permission: Permission | 'owner' | null | undefined; label: string }[];

export type Area = (typeof AREAS)[number];
export type AreaPath = Area['path'];

export function area(path: AreaPath): Area {
  const found = AREAS.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`unknown area ${path}`);
  return found;
}
