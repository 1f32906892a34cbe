/**
 * The one way the web app calls /panel/api: an openapi-fetch client typed by schema.d.ts (generated
 * from the panel's OpenAPI document), so a schema change the app does not follow fails the typecheck.
 * Middleware adds the session's CSRF token to every state-changing call and sends the person to the
 * sign-in page when a call answers 401 (the session ended), keeping where they were.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Session = components['schemas']['Session'];
export type Permission = components['schemas']['Permission'];
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

export const API_BASE = '/panel/api';

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** The session query stores the token here whenever it reads the session. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The router says what "go to the sign-in page" means (it knows the current path). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

// Calls that answer 401 as part of their normal flow: a wrong password, a spent link, no session yet.
const EXPECTED_401 = new Set(['/session', '/session/link', '/password', '/password-reset', '/invitations/accept']);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method) && csrfToken) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    const path = new URL(request.url).pathname.slice(API_BASE.length);
    if (response.status === 401 && !EXPECTED_401.has(path)) {
      csrfToken = null;
      onUnauthorized?.();
    }
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: 'same-origin' });
api.use(sessionMiddleware);
