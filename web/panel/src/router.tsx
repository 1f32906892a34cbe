/**
 * The panel's routes (code-based, every page a lazy chunk). Pages outside the session: sign-in,
 * forgot password and the one-time pages. Inside: the app layout, whose guard reads the session
 * and sends a signed-out person to sign-in with the path they wanted; each area also checks
 * its permission and shows the "no permission" page instead of the area.
 */
import { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { setUnauthorizedHandler } from './api/client';
import { area, type AreaPath } from './ui/areas';
import { ApiProblem } from './api/errors';
import { hasPermission, sessionQuery, signedOut } from './api/session';
import { ErrorPage, ForbiddenError } from './ui/error-page';
import { NotFoundPage } from './pages/errors/not-found-page';
import { prefetchStatistics } from './pages/statistics/prefetch-statistics';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; a network fault may.
      retry: (count, error) => count < 2 && !(error instanceof ApiProblem && error.status >= 400 && error.status < 500),
    },
  },
});

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFoundPage });

/** `?redirect=` keeps only a path inside the app (no other origin, no protocol-relative URL). */
function safeRedirect(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') ? value : undefined;
}

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({ redirect: safeRedirect(search.redirect) }),
  component: lazyRouteComponent(() => import('./pages/sign-in/sign-in-page'), 'SignInPage'),
});
const forgotRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: lazyRouteComponent(() => import('./pages/sign-in/forgot-password-page'), 'ForgotPasswordPage'),
});
const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/set-password',
  component: lazyRouteComponent(() => import('./pages/one-time/set-password-page'), 'SetPasswordPage'),
});
const linkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/link',
  component: lazyRouteComponent(() => import('./pages/one-time/link-page'), 'LinkPage'),
});
const acceptRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept',
  component: lazyRouteComponent(() => import('./pages/one-time/accept-page'), 'AcceptPage'),
});

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ location }) => {
    const session = await queryClient.ensureQueryData(sessionQuery);
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    return { session };
  },
  component: lazyRouteComponent(() => import('./ui/app-layout'), 'AppLayout'),
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./pages/home/home-page'), 'HomePage'),
});

/**
 * An area of the navigation: its page, shown only with the permission (else the "no permission" page);
 * `loader` asks for the page's first data while its chunks load.
 */
function areaRoute<T extends Record<string, unknown>, S = Record<string, never>, P extends AreaPath | `${AreaPath}/$${string}` = AreaPath>(
  path: P,
  load: () => Promise<T>,
  name: keyof T & string,
  options: { validateSearch?: (search: Record<string, unknown>) => S; loader?: () => void } = {},
) {
  const { permission } = area(path.replace(/\/\$[^/]+$/, '') as AreaPath);
  return createRoute({
    getParentRoute: () => appRoute,
    path,
    validateSearch: options.validateSearch,
    beforeLoad: ({ context }) => {
      if (permission !== undefined && !hasPermission(context.session, permission)) throw new ForbiddenError();
    },
    loader: options.loader,
    component: lazyRouteComponent(load as () => Promise<Record<string, () => React.JSX.Element>>, name),
  });
}

const formsRoute = areaRoute('/forms', () => import('./pages/forms/forms-page'), 'FormsPage');
// The builder of one form needs "forms" (the list needs only "responses").
const formRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/forms/$formId',
  beforeLoad: ({ context }) => {
    if (!hasPermission(context.session, 'forms')) throw new ForbiddenError();
  },
  component: lazyRouteComponent(() => import('./pages/forms/form-page'), 'FormPage'),
});
const treatmentsRoute = areaRoute('/treatments', () => import('./pages/treatments/treatments-page'), 'TreatmentsPage');
const caseRoute = areaRoute('/treatments/$id', () => import('./pages/treatments/case-page'), 'CasePage');
const rostersRoute = areaRoute('/rosters', () => import('./pages/rosters/rosters-page'), 'RostersPage');
/** `?form=` names the form whose invites are shown (a form id; anything else is dropped). */
const formSearch = (search: Record<string, unknown>): { form?: string } => ({ form: typeof search.form === 'string' && /^[0-9a-f-]{36}$/.test(search.form) ? search.form : undefined });
export const invitesRoute = areaRoute('/invites', () => import('./pages/invites/invites-page'), 'InvitesPage', { validateSearch: formSearch });
const integrationsRoute = areaRoute('/integrations', () => import('./pages/integrations/integrations-page'), 'IntegrationsPage');
const settingsRoute = areaRoute('/settings', () => import('./pages/settings/settings-page'), 'SettingsPage');
const membersRoute = areaRoute('/members', () => import('./pages/members/members-page'), 'MembersPage');
const accountRoute = areaRoute('/account', () => import('./pages/account/account-page'), 'AccountPage');
const responsesRoute = areaRoute('/responses', () => import('./pages/responses/responses-page'), 'ResponsesPage');
const responseRoute = areaRoute('/responses/$responseId', () => import('./pages/responses/response-page'), 'ResponsePage');
const statisticsRoute = areaRoute('/statistics', () => import('./pages/statistics/statistics-page'), 'StatisticsPage', { loader: () => prefetchStatistics(queryClient) });

const routeTree = rootRoute.addChildren([
  signInRoute,
  forgotRoute,
  setPasswordRoute,
  linkRoute,
  acceptRoute,
  appRoute.addChildren([homeRoute, formsRoute, formRoute, invitesRoute, responsesRoute, responseRoute, statisticsRoute, treatmentsRoute, caseRoute, rostersRoute, integrationsRoute, settingsRoute, membersRoute, accountRoute]),
]);

export const router = createRouter({
  routeTree,
  basepath: '/panel',
  defaultErrorComponent: ErrorPage,
  defaultNotFoundComponent: NotFoundPage,
  defaultPreload: 'intent',
  scrollRestoration: true,
});

// The first page's chunks (layout and page) and the session are asked for at once, side by side:
// the router alone would import the chunks only once the layout's guard has the session.
void queryClient.prefetchQuery(sessionQuery);
for (const match of router.matchRoutes(router.latestLocation)) void router.loadRouteChunk(router.routesById[match.routeId as keyof typeof router.routesById]);

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// A call answering 401 means the session ended: back to sign-in, then back here.
setUnauthorizedHandler(() => {
  signedOut(queryClient);
  const { href, pathname } = router.state.location;
  if (pathname !== '/sign-in') void router.navigate({ to: '/sign-in', search: { redirect: href } });
});
