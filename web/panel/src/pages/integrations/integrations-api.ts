/** The Integrations area's calls: queries and the keys they are cached under (mutations invalidate these). */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { paths } from '../../api/schema';
import { unwrap } from '../../api/errors';

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

/** A pending delivery due within this long is worth watching; one due later (a retry in minutes or hours) is not polled for. */
const DUE_SOON_MS = 5_000;
/** At most this many answers per log by polling: past it the log waits for its refresh button. */
const MAX_POLLS = 30;

/**
 * Asks again every second only while a pending delivery is due within a few seconds (or, for a
 * ping, while its delivery has not appeared yet), and never more than MAX_POLLS times.
 */
export function pollWhileDueSoon(deliveries: Delivery[] | undefined, updates: number, waitingForFirst: boolean, nowMs: number): number | false {
  if (updates >= MAX_POLLS) return false;
  const dueSoon = deliveries?.some((d) => d.status === 'pending' && (d.nextAttemptAt === null || Date.parse(d.nextAttemptAt) - nowMs <= DUE_SOON_MS));
  return dueSoon || (waitingForFirst && deliveries?.length === 0) ? 1000 : false;
}

export function deliveriesQuery(filter: { subscriptionId: string; eventId?: string }) {
  return queryOptions({
    queryKey: [...DELIVERIES, filter],
    queryFn: async () => (await unwrap(api.GET('/webhooks/deliveries', { params: { query: { ...filter, limit: 50 } } }))).data,
    refetchInterval: (query) => pollWhileDueSoon(query.state.data, query.state.dataUpdateCount, filter.eventId !== undefined, Date.now()),
  });
}
