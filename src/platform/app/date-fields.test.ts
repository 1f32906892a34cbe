import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createStatsSurvey } from '../../../test/statistics.js';

/** Every date and date-time field of the API reads its value with one parser (src/lib/date-time.ts). */
let t: TestApp;
let token: string;
let formId: string;
beforeAll(async () => {
  t = await startTestApp();
  const tenant = await t.tenant();
  token = tenant.token;
  formId = (await createStatsSurvey(t, tenant.company.id)).form.id;
});
afterAll(async () => t?.close());

const status = async (url: string) => {
  const res = await t.get(token, url);
  return [res.statusCode, res.json().error?.code ?? null, res.json().error?.details?.fields?.map((f: { path: string }) => f.path) ?? null];
};

describe('period filters (from, to) of responses, statistics and report', () => {
  const routes = () => [`/v1/forms/${formId}/responses?`, `/v1/forms/${formId}/statistics?`, `/v1/forms/${formId}/report?groupBy=dim.course&`];

  it('refuse a day whose next day is past 9999-12-31 with 400 VALIDATION_ERROR naming the field', async () => {
    for (const route of routes()) {
      expect(await status(`${route}to=9999-12-31`), route).toEqual([400, 'VALIDATION_ERROR', ['to']]);
      expect(await status(`${route}from=9999-12-31`), route).toEqual([400, 'VALIDATION_ERROR', ['from']]);
      expect(await status(`${route}from=2026-01-01&to=9999-12-31`), route).toEqual([400, 'VALIDATION_ERROR', ['to']]);
      expect(await status(`${route}from=2026-02-30`), route).toEqual([400, 'VALIDATION_ERROR', ['from']]);
    }
  });

  it('answer every day up to 9999-12-30, December 9999 included', async () => {
    for (const route of routes()) {
      for (const query of ['to=9999-12-30', 'from=9999-12-15', 'from=9999-12-30&to=9999-12-30', 'from=0001-01-01&to=9999-12-30']) {
        expect(await status(`${route}${query}`), `${route}${query}`).toEqual([200, null, null]);
      }
    }
  });
});

describe('date-time fields read a leap second alike, as the next second, only at 23:59:60 UTC', () => {
  const invite = (body: Record<string, unknown>) => t.post(token, `/v1/forms/${formId}/invites`, { name: 'Ana', email: `ana.${Math.random()}@school.test`, ...body });

  it('query: since of events and changedSince of enrollments', async () => {
    for (const value of ['2026-12-31T23:59:60Z', '2027-01-01T02:59:60%2B03:00', '2026-12-31T23:59:60.250Z']) {
      expect(await status(`/v1/events?since=${value}`), value).toEqual([200, null, null]);
      expect(await status(`/v1/enrollments?changedSince=${value}`), value).toEqual([200, null, null]);
    }
    for (const value of ['2026-06-30T12:00:60Z', '2026-12-31T23:59:60%2B02:00', '2026-02-30T00:00:00Z', '9999-12-31T23:59:59-01:00', '2026-03-01T12:00', 'now']) {
      expect(await status(`/v1/events?since=${value}`), value).toEqual([400, 'VALIDATION_ERROR', ['since']]);
      expect(await status(`/v1/enrollments?changedSince=${value}`), value).toEqual([400, 'VALIDATION_ERROR', ['changedSince']]);
    }
  });

  it('body: expiresAt of an invite and scheduleAt of a send', async () => {
    const created = await invite({ expiresAt: '2026-12-31T23:59:60Z' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.expiresAt).toBe('2027-01-01T00:00:00.000Z');
    const offset = await invite({ expiresAt: '2027-01-01T05:29:60+05:30' });
    expect(offset.json().data.expiresAt).toBe('2027-01-01T00:00:00.000Z');
    const refused = await invite({ expiresAt: '2026-12-31T12:00:60Z' });
    expect([refused.statusCode, refused.json().error.details.fields.map((f: { path: string }) => f.path)]).toEqual([400, ['expiresAt']]);

    const send = await t.post(token, `/v1/forms/${formId}/invites/send`, { channel: 'email', inviteIds: [created.json().data.id], scheduleAt: '2026-12-31T23:59:60Z' });
    expect(send.statusCode, send.body).toBe(200);
    const { rows } = await t.ctx.pool.query('SELECT due_at FROM invite_messages WHERE invite_id = $1', [created.json().data.id]);
    expect(rows).toEqual([{ due_at: new Date('2027-01-01T00:00:00.000Z') }]);
    const badSchedule = await t.post(token, `/v1/forms/${formId}/invites/send`, { channel: 'email', scheduleAt: '2026-12-31T23:59:60+02:00' });
    expect(badSchedule.statusCode).toBe(400);
  });
});
