/**
 * Post/Redirect/Get: every section POST ends in a 303 to the link's GET, and what the POST decided
 * (the section to show, its errors, the values as typed, a public link's answers so far) waits in
 * respondent_page_states for that GET. The browser holds only a random key in an HttpOnly cookie
 * scoped to the link's path; the row stores its hash, so neither errors nor answers are in a URL.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../../platform/db/database.js';
import { respondentPageStates } from '../../../platform/db/schema.js';
import type { Clock } from '../../../lib/clock.js';
import type { FieldError } from '../../../lib/errors.js';
import type { NoDeps } from '../../../lib/service.js';
import type { Answers } from '../../forms/index.js';

export interface PageState {
  sectionIndex: number;
  /** errors to show on the section (empty after a plain step) */
  errors: FieldError[];
  /** the status the GET answers with: 200, or 422 / an upload limit's status for a section sent back */
  status: number;
  /** an upload limit's retry-after, answered again by the GET */
  retryAfter?: string;
  /** answers to show */
  answers: Answers;
  /** the answers the page carries for its script (and, on a public link, posts back) */
  carried: Answers;
  /** the section's fields as typed when it was sent back (a ranking's positions, a number in words) */
  typed?: Record<string, string[]>;
  /** public link: the page's submission token */
  token?: string;
  /** personal link: the draft's savedAt when kept (a draft autosaved since makes the state stale) */
  draftSavedAt?: string | null;
}

export interface StateOwner {
  companyId: string;
  formId: string;
  /** the link's path: the cookie's Path and part of the row's identity */
  link: string;
  /** the cookie's Secure flag: the pages' public address is https */
  secure: boolean;
}

const COOKIE = 'quorum_page';
const hash = (key: string) => createHash('sha256').update(key).digest('base64url');
const KEY_RE = /^[A-Za-z0-9_-]{43}$/;

function cookieKey(request: FastifyRequest): string | null {
  const key = request.cookies[COOKIE];
  return key && KEY_RE.test(key) ? key : null;
}

/** Whether this browser may hold a state for a link (it has the cookie; the row may be gone). */
export const hasPageState = (request: FastifyRequest): boolean => cookieKey(request) !== null;

const ownRow = (key: string, owner: StateOwner) =>
  and(eq(respondentPageStates.keyHash, hash(key)), eq(respondentPageStates.companyId, owner.companyId), eq(respondentPageStates.link, owner.link));

const cookieOptions = (owner: StateOwner) => ({ path: owner.link, httpOnly: true, sameSite: 'lax' as const, secure: owner.secure });

/** The request and reply whose cookie names this browser's state. */
interface Exchange {
  request: FastifyRequest;
  reply: FastifyReply;
  owner: StateOwner;
}

/** Keeps the state for the link's next GET (replacing this browser's earlier one) until expiresAt. */
export async function keepPageState(db: Db, deps: { clock: Clock }, input: Exchange & { state: PageState; expiresAt: Date }): Promise<void> {
  const { request, reply, owner, state, expiresAt } = input;
  const now = deps.clock.now();
  const old = cookieKey(request);
  if (old) await db.delete(respondentPageStates).where(ownRow(old, owner));
  const key = randomBytes(32).toString('base64url');
  const { companyId, formId, link } = owner;
  await db.insert(respondentPageStates).values({ keyHash: hash(key), companyId, formId, link, state: state as unknown as Record<string, unknown>, expiresAt });
  const maxAge = Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 1000));
  reply.setCookie(COOKIE, key, { ...cookieOptions(owner), maxAge });
}

/** This browser's state for the link, if still live. */
export async function readPageState(db: Db, deps: { clock: Clock }, input: Omit<Exchange, 'reply'>): Promise<PageState | null> {
  const { request, owner } = input;
  const now = deps.clock.now();
  const key = cookieKey(request);
  if (!key) return null;
  const [row] = await db
    .select({ state: respondentPageStates.state })
    .from(respondentPageStates)
    .where(and(ownRow(key, owner), eq(respondentPageStates.formId, owner.formId), gt(respondentPageStates.expiresAt, now)));
  return row ? (row.state as unknown as PageState) : null;
}

/** Forgets this browser's state for the link (after a submit). */
export async function dropPageState(db: Db, _deps: NoDeps, input: Exchange): Promise<void> {
  const { request, reply, owner } = input;
  const key = cookieKey(request);
  if (!key) return;
  await db.delete(respondentPageStates).where(ownRow(key, owner));
  reply.clearCookie(COOKIE, cookieOptions(owner));
}

/** A section's fields as typed, for showing them again (files excluded: they are stored uploads). */
export function typedFields(values: (name: string) => string[], names: string[]): Record<string, string[]> {
  return Object.fromEntries(names.flatMap((name) => (values(name).length > 0 ? [[name, values(name)]] : [])));
}
