/** The Treatments area's reads. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';

export type CaseFilter = { status: 'open' | 'overdue' | 'closed' | 'all'; formId?: string; flowKey?: string };
export type CasePageView = paths['/treatments/{id}']['get']['responses'][200]['content']['application/json']['data'];
export const PAGE_SIZE = 25;

export const boardQuery = queryOptions({
  queryKey: ['treatments', 'board'],
  queryFn: async () => (await unwrap(api.GET('/treatments/board'))).data,
});

/** The list's filter as the API's: "overdue" is open cases flagged overdue. */
function listParams(filter: CaseFilter) {
  const status = filter.status === 'all' ? {} : filter.status === 'overdue' ? { overdue: true } : { status: filter.status };
  return { ...status, ...(filter.formId ? { formId: filter.formId } : {}), ...(filter.flowKey ? { flowKey: filter.flowKey } : {}) };
}

export function casesQuery(filter: CaseFilter) {
  return infiniteQueryOptions({
    queryKey: ['treatments', 'cases', filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/treatments', { params: { query: { ...listParams(filter), limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
  });
}

export function caseQuery(id: string) {
  return queryOptions({
    queryKey: ['treatments', 'case', id],
    queryFn: async () => (await unwrap(api.GET('/treatments/{id}', { params: { path: { id } } }))).data,
  });
}

/** An instant in a time zone, in the person's language (a zone the browser does not know falls back to UTC). */
export function instantText(iso: string, language: string, timeZone?: string): string {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));
  }
}
