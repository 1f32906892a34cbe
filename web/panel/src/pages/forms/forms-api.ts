/** The Forms area's calls: queries and the keys they are cached under (mutations invalidate these). */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';

type Data<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

export type FormSummary = Data<'/forms', 'get'>[number];
export type FormDetail = Data<'/forms/{id}', 'get'>;
export type FormVersion = Data<'/forms/{id}/versions', 'get'>[number];
export type GoalRule = Data<'/forms/{id}/goals', 'get'>[number];
export type FlowItem = Data<'/forms/{id}/flows', 'get'>[number];
export type ReminderSchedule = Data<'/forms/{id}/reminders', 'get'>[number];
export type ListFilter = { search?: string; status?: 'open' | 'closed'; page: number };

export const FORMS = ['forms'] as const;
export const PAGE_SIZE = 20;

export function formsQuery(filter: ListFilter) {
  return queryOptions({
    queryKey: [...FORMS, 'list', filter],
    queryFn: async () => unwrap(api.GET('/forms', { params: { query: { ...filter, search: filter.search || undefined, limit: PAGE_SIZE } } })),
  });
}

export function formQuery(id: string) {
  return queryOptions({ queryKey: [...FORMS, id], queryFn: async () => (await unwrap(api.GET('/forms/{id}', { params: { path: { id } } }))).data });
}

export function versionsQuery(id: string) {
  return queryOptions({ queryKey: [...FORMS, id, 'versions'], queryFn: async () => (await unwrap(api.GET('/forms/{id}/versions', { params: { path: { id } } }))).data });
}

export function goalsQuery(id: string) {
  return queryOptions({ queryKey: [...FORMS, id, 'goals'], queryFn: async () => (await unwrap(api.GET('/forms/{id}/goals', { params: { path: { id } } }))).data });
}

export function remindersQuery(id: string) {
  return queryOptions({ queryKey: [...FORMS, id, 'reminders'], queryFn: async () => (await unwrap(api.GET('/forms/{id}/reminders', { params: { path: { id } } }))).data });
}

export function flowsQuery(id: string) {
  return queryOptions({ queryKey: [...FORMS, id, 'flows'], queryFn: async () => (await unwrap(api.GET('/forms/{id}/flows', { params: { path: { id } } }))).data });
}
