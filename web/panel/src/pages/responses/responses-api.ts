/** The Responses area's calls and the cut (form, period, dims) the Responses and Statistics pages share. */
import { queryOptions } from '@tanstack/react-query';
import { api, API_BASE } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components, paths } from '../../api/schema';

type Data<P extends keyof paths> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

export type FormListItem = Data<'/responses/forms'>[number];
export type DescribedForm = Data<'/responses/forms/{id}'>;
export type Question = components['schemas']['FormQuestion'];
export type ResponseItem = components['schemas']['Response'];
export type ResponseContext = Data<'/responses/{id}'>;

/** A cut of a form's responses: the API's filters (UTC days, dim values as stored). */
export interface Cut {
  from?: string;
  to?: string;
  dims: Record<string, string>;
}

/** The cut as query parameters: from, to and dim.<key>=<value> (empty values left out). */
export function cutQuery(cut: Cut): Record<string, string> {
  const query: Record<string, string> = {};
  if (cut.from) query.from = cut.from;
  if (cut.to) query.to = cut.to;
  for (const [key, value] of Object.entries(cut.dims)) if (value) query[`dim.${key}`] = value;
  return query;
}

// The company's forms for the picker: the first 100, newest first, which is what a picker can show.
// Fresh for a while: the page and its picker read it, and a loader may have asked just before they mount.
export const formsQuery = queryOptions({
  queryKey: ['responses', 'forms'],
  queryFn: async () => (await unwrap(api.GET('/responses/forms', { params: { query: { limit: 100 } } }))).data,
  staleTime: 30_000,
});

export const formQuery = (id: string) =>
  queryOptions({
    queryKey: ['responses', 'form', id],
    queryFn: async () => (await unwrap(api.GET('/responses/forms/{id}', { params: { path: { id } } }))).data,
    staleTime: 60_000,
  });

export const SCAN_PAGE = 100;

/** One page of the keyset scan; dim.<key> parameters are pattern-named, so they ride beside the typed ones. */
export async function scanPage(formId: string, cut: Cut, cursor: string | undefined) {
  const query = { limit: SCAN_PAGE, ...(cursor ? { cursor } : {}), ...cutQuery(cut) } as { limit: number };
  return unwrap(api.GET('/responses/forms/{id}/scan', { params: { path: { id: formId }, query } }));
}

export const responseQuery = (id: string) =>
  queryOptions({
    queryKey: ['responses', 'one', id],
    queryFn: async () => (await unwrap(api.GET('/responses/{id}', { params: { path: { id } } }))).data,
  });

export function deleteResponse(id: string) {
  return unwrap(api.DELETE('/responses/{id}', { params: { path: { id } } }));
}

/** The export's address (a streamed file, read with fetch to show progress). */
export function exportUrl(formId: string, cut: Cut, format: 'csv' | 'xlsx', keys: boolean): string {
  const query = new URLSearchParams({ format, ...(keys ? { keys: 'true' } : {}), ...cutQuery(cut) });
  return `${API_BASE}/responses/forms/${encodeURIComponent(formId)}/export?${query}`;
}

/** The questions of a form in the order the respondent met them. */
export function questionsOf(form: DescribedForm): Question[] {
  return form.sections.flatMap((section) => section.questions);
}
