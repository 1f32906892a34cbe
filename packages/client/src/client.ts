import createFetchClient from 'openapi-fetch';
import { QuorumError } from './errors.js';
import { retryingFetch, type RetryOptions } from './retrying-fetch.js';
import type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type Body<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

export type ResponseRecord = Schemas['Response'];
export type Invite = Schemas['Invite'];
export type Enrollment = Schemas['Enrollment'];
export type ResponseFilters = Omit<Query<'listFormResponses'>, 'cursor'>;
export type InviteFilters = Omit<Query<'listInvites'>, 'cursor'>;
export type EnrollmentFilters = Omit<Query<'listEnrollments'>, 'cursor'>;

export interface QuorumClientOptions extends RetryOptions {
  /** The API's address, ending in /v1. */
  baseUrl: string;
  /** An API key, `qk_<keyId>_<secret>`. */
  apiKey: string;
}

/** A write's own key, to make one logical request idempotent across processes (else a fresh UUID per call). */
export interface WriteOptions {
  idempotencyKey?: string;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The envelope's data, or a QuorumError carrying the envelope's code. */
async function unwrap<T extends { data: unknown }>(call: Promise<Answer<T>>): Promise<T['data']> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw QuorumError.from(response, error);
  return data.data;
}

/** Every row of a cursor list, page after page, following meta.nextCursor until it is null. */
async function* everyRow<T>(page: (cursor: string | undefined) => Promise<Answer<{ data: T[]; meta: { nextCursor: string | null } }>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await page(cursor);
    if (!response.ok || data === undefined) throw QuorumError.from(response, error);
    yield* data.data;
    cursor = data.meta.nextCursor ?? undefined;
  } while (cursor);
}

const keyHeader = (options?: WriteOptions) => (options?.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {});

/**
 * The Quorum client: `api` is the typed openapi-fetch client over every operation; the methods are
 * what integrators otherwise write by hand (cursor scans, safe retries, typed errors).
 */
export function createQuorumClient(options: QuorumClientOptions) {
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options),
    // dim.<key> filters travel as one `dims` object written as its own parameters (the document's form style).
    querySerializer: { object: { style: 'form', explode: true } },
  });
  const pageSize = 100;
  return {
    api,
    me: () => unwrap(api.GET('/me')),
    /** `for await (const response of client.responses(formId, { from, include: 'answers' }))` */
    responses: (formId: string, filters: ResponseFilters = {}) =>
      everyRow((cursor) => api.GET('/forms/{id}/responses', { params: { path: { id: formId }, query: { limit: pageSize, ...filters, cursor } } })),
    invites: (formId: string, filters: InviteFilters = {}) =>
      everyRow((cursor) => api.GET('/forms/{id}/invites', { params: { path: { id: formId }, query: { limit: pageSize, ...filters, cursor } } })),
    enrollments: (filters: EnrollmentFilters = {}) => everyRow((cursor) => api.GET('/enrollments', { params: { query: { limit: pageSize, ...filters, cursor } } })),
    createInvite: (formId: string, body: Body<'createInvite'>, write?: WriteOptions) =>
      unwrap(api.POST('/forms/{id}/invites', { params: { path: { id: formId }, header: keyHeader(write) }, body })),
    sendInvites: (formId: string, body: Body<'sendInvites'>, write?: WriteOptions) =>
      unwrap(api.POST('/forms/{id}/invites/send', { params: { path: { id: formId }, header: keyHeader(write) }, body })),
    revokeInvite: (inviteId: string, write?: WriteOptions) => unwrap(api.POST('/invites/{id}/revoke', { params: { path: { id: inviteId }, header: keyHeader(write) } })),
    importRoster: (body: Body<'importRoster'>, write?: WriteOptions) => unwrap(api.POST('/enrollments/import', { params: { header: keyHeader(write) }, body })),
  };
}

export type QuorumClient = ReturnType<typeof createQuorumClient>;
