/** The Invites area's reads and the shapes it uses, from the panel API's generated types. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components, paths } from '../../api/schema';

type Data<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
type Body<P extends keyof paths> = paths[P]['post'] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Invite = components['schemas']['Invite'];
export type InviteStatus = Invite['status'];
export type InviteForm = Data<'/invites/forms', 'get'>[number];
export type Timeline = Data<'/invites/{id}/timeline', 'get'>;
export type ImportFile = Data<'/invites/import/read', 'post'>;
export type ImportSummary = Data<'/forms/{id}/invites/import', 'post'>;
export type SendBody = Body<'/forms/{id}/invites/send'>;
export type SendAnswer = Data<'/forms/{id}/invites/send', 'post'>;
export type DryRun = Extract<SendAnswer, { dryRun: true }>;
export type CreateBody = Body<'/forms/{id}/invites'>;

export const INVITE_STATUSES: InviteStatus[] = ['created', 'queued', 'sent', 'delivered', 'opened', 'started', 'responded', 'failed', 'revoked', 'expired'];
/** The API's largest page: the list reads the next one as the view nears its last row. */
export const PAGE_SIZE = 100;

export const INVITES = ['invites'] as const;

export const formsQuery = queryOptions({
  queryKey: [...INVITES, 'forms'],
  queryFn: async () => (await unwrap(api.GET('/invites/forms', { params: { query: { limit: 100 } } }))).data,
});

export const countsQuery = (formId: string) =>
  queryOptions({
    queryKey: [...INVITES, formId, 'counts'],
    queryFn: async () => (await unwrap(api.GET('/forms/{id}/invites/counts', { params: { path: { id: formId } } }))).data as Record<InviteStatus, number>,
  });

export const timelineQuery = (inviteId: string) =>
  queryOptions({
    queryKey: [...INVITES, 'timeline', inviteId],
    queryFn: async () => (await unwrap(api.GET('/invites/{id}/timeline', { params: { path: { id: inviteId } } }))).data,
  });

/** One page of the list over the API's cursor. */
export async function invitePage(formId: string, status: InviteStatus | null, cursor: string | undefined) {
  const query = { limit: PAGE_SIZE, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) };
  return unwrap(api.GET('/forms/{id}/invites', { params: { path: { id: formId }, query } }));
}

/** A file's bytes as base64, for /invites/import/read. */
export async function fileAsBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  // In slices: String.fromCharCode over a whole file overflows the argument stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
