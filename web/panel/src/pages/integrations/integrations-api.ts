/** The Integrations area's calls: queries and the keys they are cached under (mutations invalidate these). */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
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

/** Rows per page of the keys list and the delivery log ("Load more" asks for the next). */
export const PAGE_SIZE = 50;

/** A cursor page as the lists keep it: its rows and the cursor of the next page (null: the last). */
const pageOf = <T>({ data, meta }: { data: T[]; meta: { nextCursor: string | null } }) => ({ items: data, nextCursor: meta.nextCursor });
const cursorPaging = { initialPageParam: null as string | null, getNextPageParam: (last: { nextCursor: string | null }) => last.nextCursor };
const cursorOf = (pageParam: string | null) => (pageParam ? { cursor: pageParam } : {});

export const keysQuery = infiniteQueryOptions({
  queryKey: KEYS,
  queryFn: async ({ pageParam }) => pageOf(await unwrap(api.GET('/keys', { params: { query: { limit: PAGE_SIZE, ...cursorOf(pageParam) } } }))),
  ...cursorPaging,
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

/** The deliveries of one ping (the Test button's): one page, polled while it settles. */
export function pingDeliveryQuery(filter: { subscriptionId: string; eventId: string }) {
  return queryOptions({
    queryKey: [...DELIVERIES, filter],
    queryFn: async () => (await unwrap(api.GET('/webhooks/deliveries', { params: { query: { ...filter, limit: PAGE_SIZE } } }))).data,
    refetchInterval: (query) => pollWhileDueSoon(query.state.data, query.state.dataUpdateCount, true, Date.now()),
  });
}

/** A subscription's delivery log, newest first, page by page; polled while a loaded delivery is due soon. */
export function deliveryLogQuery(subscriptionId: string) {
  return infiniteQueryOptions({
    queryKey: [...DELIVERIES, { subscriptionId }],
    queryFn: async ({ pageParam }) => pageOf(await unwrap(api.GET('/webhooks/deliveries', { params: { query: { subscriptionId, limit: PAGE_SIZE, ...cursorOf(pageParam) } } }))),
    ...cursorPaging,
    refetchInterval: (query) => pollWhileDueSoon(query.state.data?.pages.flatMap((page) => page.items), query.state.dataUpdateCount, false, Date.now()),
  });
}
