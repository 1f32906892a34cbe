import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneDatabase, startTestApp, testConfig, type TestApp } from '../../../test/harness.js';
import { addResponses, createSurvey } from '../../../test/responses.js';
import { createContext, type Context } from '../context.js';
import { companies } from '../../features/companies/table.js';
import { emitEvent } from '../../features/events/emit-event.js';

/**
 * READ_DATABASE_URL: the heavy list reads go to the replica. The "replica" here is a second database
 * holding other rows than the main one, so an answer shows which database it was read from.
 */
describe('a context with READ_DATABASE_URL', () => {
  let t: TestApp;
  let replica: Awaited<ReturnType<typeof cloneDatabase>>;
  let replicaCtx: Context;
  let token: string;
  let replicaSurvey: Awaited<ReturnType<typeof createSurvey>>;
  let replicaResponses: string[];
  let replicaEvent: string;

  beforeAll(async () => {
    replica = await cloneDatabase();
    t = await startTestApp({ config: { readDatabaseUrl: replica.url } });
    const tenant = await t.tenant();
    token = tenant.token;
    // The same company on the replica, with a survey and responses the main database does not have.
    replicaCtx = await createContext(testConfig(replica.url), { clock: t.clock, poolSize: 2 });
    const [company] = await t.ctx.db.select().from(companies).where(eq(companies.id, tenant.company.id));
    await replicaCtx.db.insert(companies).values(company);
    const onReplica = { ...t, ctx: replicaCtx };
    replicaSurvey = await createSurvey(onReplica, company.id);
    replicaResponses = await addResponses(onReplica, replicaSurvey, 3);
    const goal = { formId: replicaSurvey.form.id, formName: replicaSurvey.form.name, responseCount: 3, goal: 3, alertRuleId: null };
    replicaEvent = (await replicaCtx.db.transaction((tx) => emitEvent(tx, replicaCtx, { companyId: company.id, type: 'form.goal_reached', data: goal }))).id;
  });
  afterAll(async () => {
    await replicaCtx?.close();
    await t?.close();
    await replica?.drop();
  });

  it('reads the responses list from the replica', async () => {
    const res = await t.get(token, `/v1/forms/${replicaSurvey.form.id}/responses`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { id: string }) => r.id).sort()).toEqual([...replicaResponses].sort());
  });

  it('reads the events list from the replica', async () => {
    const res = await t.get(token, '/v1/events');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((e: { id: string }) => e.id)).toEqual([replicaEvent]);
  });

  it('reads statistics and reports from the replica', async () => {
    const stats = await t.get(token, `/v1/forms/${replicaSurvey.form.id}/statistics`);
    expect(stats.statusCode).toBe(200);
    expect(stats.json().data.responseCount).toBe(3);
    expect((await t.get(token, `/v1/forms/${replicaSurvey.form.id}/report?groupBy=orgUnit`)).statusCode).not.toBe(404);
  });

  it('keeps the rest on the main database: the form itself is not found there', async () => {
    expect((await t.get(token, `/v1/forms/${replicaSurvey.form.id}`)).statusCode).toBe(404);
  });
});
