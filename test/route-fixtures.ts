import type { TestApp } from './harness.js';
import { addResponses, createSurvey } from './responses.js';
import { createInvite } from '../src/features/invites/create-invite.js';
import { createStatsSurvey } from './statistics.js';
import { caseOfNewResponse } from './treatments.js';

/**
 * Path parameters of a real record of `companyId`, per OpenAPI path: the generated auth suite
 * (src/app/auth-coverage.test.ts) calls each route with them under another company's key and
 * expects 404. A route with parameters and no fixture here is still covered, with random ids.
 * A feature adding a route on one record adds its line here.
 */
export type RouteFixture = (t: TestApp, companyId: string) => Promise<Record<string, string>>;

export const routeFixtures: Record<string, RouteFixture> = {
  '/forms/{id}': async (t, companyId) => ({ id: (await createSurvey(t, companyId)).form.id }),
  '/forms/{id}/responses': async (t, companyId) => {
    const survey = await createSurvey(t, companyId);
    await addResponses(t, survey, 1);
    return { id: survey.form.id };
  },
  '/responses/{id}': async (t, companyId) => {
    const [id] = await addResponses(t, await createSurvey(t, companyId), 1);
    return { id };
  },
  '/forms/{id}/invites': async (t, companyId) => ({ id: (await createSurvey(t, companyId)).form.id }),
  '/forms/{id}/invites/send': async (t, companyId) => ({ id: (await createSurvey(t, companyId)).form.id }),
  '/invites/{id}/revoke': async (t, companyId) => {
    const survey = await createSurvey(t, companyId);
    return { id: (await createInvite(t.ctx.db, t.ctx, { companyId, formId: survey.form.id, email: 'fixture@school.edu' })).id };
  },
  '/forms/{id}/statistics': async (t, companyId) => ({ id: (await createStatsSurvey(t, companyId)).form.id }),
  '/forms/{id}/report': async (t, companyId) => ({ id: (await createStatsSurvey(t, companyId)).form.id }),
  '/treatments/{id}': async (t, companyId) => ({ id: await caseOfNewResponse(t, companyId) }),
};

/**
 * A request the route accepts, per "METHOD path", for routes whose required query or body would
 * otherwise be refused (400) before the record is looked up: the 404 test must reach the lookup.
 */
export const routeInputs: Record<string, { query?: string; body?: object }> = {
  'GET /forms/{id}/report': { query: 'groupBy=dim.course' },
  'POST /forms/{id}/invites': { body: { email: 'fixture@school.edu' } },
  'POST /forms/{id}/invites/send': { body: { channel: 'email' } },
};
