/** The Members area's calls: queries and the keys they are cached under (mutations invalidate them). */
import { queryOptions } from '@tanstack/react-query';
import { api, type Permission } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';

/** The data of a GET's 200 answer, as the generated types describe it. */
type Answer<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: infer D } } } } } } ? D : never;

export type Member = Answer<'/members'>[number];
export type Invitation = Answer<'/invitations'>[number];
export type AuditEntry = Answer<'/audit'>[number];

export const PERMISSION_ORDER: readonly Permission[] = ['integrations', 'forms', 'invites', 'responses', 'rosters', 'treatments', 'settings'];

export const membersQuery = queryOptions({
  queryKey: ['members'],
  queryFn: async () => (await unwrap(api.GET('/members'))).data,
});

export const invitationsQuery = queryOptions({
  queryKey: ['invitations'],
  queryFn: async () => (await unwrap(api.GET('/invitations'))).data,
});

export interface AuditFilters {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
}

/** One page of the audit log; `cursor` is the previous page's meta.nextCursor. */
export async function auditPage(filters: AuditFilters, cursor: string | undefined) {
  return unwrap(api.GET('/audit', { params: { query: { ...filters, cursor, limit: 25 } } }));
}
