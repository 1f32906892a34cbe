/** The Settings area's reads: one query per panel, so a save refreshes only what it changed. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { paths } from '../../api/schema';
import { ApiProblem, unwrap, type FieldProblem } from '../../api/errors';

export const SUPPRESSIONS_PAGE_SIZE = 20;

type Answer<P extends keyof paths, M extends 'get'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
export type CompanySettingsView = Answer<'/settings', 'get'>;
export type WhatsappChannel = NonNullable<Answer<'/settings/whatsapp', 'get'>['channel']>;

export const companySettingsQuery = queryOptions({
  queryKey: ['settings', 'company'],
  queryFn: async () => (await unwrap(api.GET('/settings'))).data,
});

export const whatsappQuery = queryOptions({
  queryKey: ['settings', 'whatsapp'],
  queryFn: async () => (await unwrap(api.GET('/settings/whatsapp'))).data.channel,
});

export const holidaysQuery = queryOptions({
  queryKey: ['settings', 'holidays'],
  queryFn: async () => (await unwrap(api.GET('/settings/holidays'))).data,
});

export function suppressionsQuery(search: string, page: number) {
  return queryOptions({
    queryKey: ['settings', 'suppressions', search, page],
    queryFn: () => unwrap(api.GET('/suppressions', { params: { query: { page, limit: SUPPRESSIONS_PAGE_SIZE, ...(search ? { search } : {}) } } })),
    // The table keeps its rows while the next page or search loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/**
 * The field errors of a refusal with their paths as the form names them (`settings.url` and
 * `templates[2]` are the fields `url` and `templates`), for applyFieldErrors.
 */
export function renamedFields(problem: ApiProblem, rename: (path: string) => string): ApiProblem {
  const fields: FieldProblem[] = problem.fields.map((field) => ({ ...field, path: rename(field.path) }));
  return new ApiProblem(problem.status, problem.code, problem.message, { ...problem.details, fields });
}
