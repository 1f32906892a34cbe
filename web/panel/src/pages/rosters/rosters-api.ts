/** The Rosters area's reads. */
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';

export const PAGE_SIZE = 20;
export type EnrollmentFilter = NonNullable<paths['/rosters/enrollments']['get']['parameters']['query']>;
export type ImportAnswer = paths['/rosters/import']['post']['responses'][200]['content']['application/json']['data'];
export type EnrollmentStatus = 'enrolled' | 'completed' | 'dropped';
export const ENROLLMENT_STATUSES: EnrollmentStatus[] = ['enrolled', 'completed', 'dropped'];

export function enrollmentsQuery(filter: Omit<EnrollmentFilter, 'cursor' | 'limit'>) {
  return infiniteQueryOptions({
    queryKey: ['rosters', 'enrollments', filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/rosters/enrollments', { params: { query: { ...filter, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });
}

export function classesQuery(page: number, limit = PAGE_SIZE) {
  return queryOptions({
    queryKey: ['rosters', 'classes', page, limit],
    queryFn: () => unwrap(api.GET('/rosters/classes', { params: { query: { page, limit } } })),
    placeholderData: keepPreviousData,
  });
}

export function groupsQuery(page: number, limit = PAGE_SIZE) {
  return queryOptions({
    queryKey: ['rosters', 'groups', page, limit],
    queryFn: () => unwrap(api.GET('/rosters/class-groups', { params: { query: { page, limit } } })),
    placeholderData: keepPreviousData,
  });
}
