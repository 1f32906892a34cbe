/** The Statistics area's calls: a cut's figures and a grouped report, the same services as /v1's. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { cutQuery, type Cut } from '../responses/responses-api';

export type Statistics = components['schemas']['Statistics'];
export type QuestionFigures = Statistics['questions'][number];
export type Report = components['schemas']['Report'];

export const statisticsQuery = (formId: string, cut: Cut) =>
  queryOptions({
    queryKey: ['statistics', formId, cut],
    queryFn: async () => (await unwrap(api.GET('/statistics/forms/{id}', { params: { path: { id: formId }, query: cutQuery(cut) } }))).data,
    // the route's loader asks before the page mounts: not asked again on mount
    staleTime: 30_000,
  });

export const reportQuery = (formId: string, cut: Cut, groupBy: string) =>
  queryOptions({
    queryKey: ['statistics', formId, cut, groupBy],
    queryFn: async () =>
      (await unwrap(api.GET('/statistics/forms/{id}/report', { params: { path: { id: formId }, query: { ...cutQuery(cut), groupBy } } }))).data,
  });
