/** The Integrations area's calls: queries and the keys they are cached under (mutations invalidate these). */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';
import { pollWhileDueSoon } from './delivery-polling';

type Answer<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

export type ApiKey = Answer<'/keys', 'get'>[number];
export type Webhook = Answer<'/webhooks', 'get'>[number];
export type Delivery = Answer<'/webhooks/deliveries', 'get'>[number];
export type CreateKeyBody = NonNullable<paths['/keys']['post']['requestBody']>['content']['application/json'];

export const KEYS = ['integrations', 'keys'] as const;
export const WEBHOOKS = ['integrations', 'webhooks'] as const;
export const DELIVERIES = ['integrations', 'deliveries'] as const;

export const keysQuery = queryOptions({
  queryKey: KEYS,
  queryFn: async () => (await unwrap(api.GET('/keys'))).data,
});

export const scopesQuery = queryOptions({
  queryKey: [...KEYS, 'scopes'],
  queryFn: async () => (await unwrap(api.GET('/keys/scopes'))).data,
  staleTime: Infinity,
});

export const webhooksQuery = queryOptions({
  queryKey: WEBHOOKS,
  queryFn: async () => (await unwrap(api.GET('/webhooks'))).data,
});

export const eventTypesQuery = queryOptions({
  queryKey: [...WEBHOOKS, 'event-types'],
  queryFn: async () => (await unwrap(api.GET('/webhooks/event-types'))).data,
  staleTime: Infinity,
});

export function deliveriesQuery(filter: { subscriptionId: string; eventId?: string }) {
  return queryOptions({
    queryKey: [...DELIVERIES, filter],
    queryFn: async () => (await unwrap(api.GET('/webhooks/deliveries', { params: { query: { ...filter, limit: 50 } } }))).data,
    refetchInterval: (query) => pollWhileDueSoon(query.state.data, query.state.dataUpdateCount, filter.eventId !== undefined, Date.now()),
  });
}
