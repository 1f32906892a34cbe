/**
 * The session as the app knows it: one TanStack Query entry read from GET /panel/api/session
 * (null when signed out), and the calls that replace it (sign-in, one-time links, company switch).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, setCsrfToken, type Permission, type Session } from './client';
import { ApiProblem, unwrap } from './errors';

export const SESSION_KEY = ['session'] as const;

export const sessionQuery = queryOptions({
  queryKey: SESSION_KEY,
  queryFn: async (): Promise<Session | null> => {
    try {
      const { data } = await unwrap(api.GET('/session'));
      setCsrfToken(data.csrfToken);
      return data;
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 401) {
        setCsrfToken(null);
        return null;
      }
      throw error;
    }
  },
  staleTime: 60_000,
});

/** A call that answers a Session signs in: the cache takes it as the current session. */
export function adoptSession(client: QueryClient, session: Session): Session {
  setCsrfToken(session.csrfToken);
  client.setQueryData(SESSION_KEY, session);
  return session;
}

export function signedOut(client: QueryClient): void {
  setCsrfToken(null);
  client.setQueryData(SESSION_KEY, null);
  // Nothing of the previous person's data may remain on screen, nor in past mutations' data and variables.
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
  client.getMutationCache().clear();
}

export function hasPermission(session: Session, permission: Permission | 'owner' | null): boolean {
  if (permission === null) return session.company !== null;
  if (permission === 'owner') return session.owner;
  return session.owner || session.permissions.includes(permission);
}
