import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { registerSchool, rosterPayload, studentId } from '../../../test/rosters.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { describeRates, ratesCommand } from './rates.js';

let t: TestApp;
let rt: CliRuntime;
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
});
afterAll(async () => t?.close());

describe('quorum rates', () => {
  it('prints the counts and response rate overall and per group, only the groupings named by --by', async () => {
    const { company, token } = await t.tenant();
    await registerSchool(t, company.id);
    expect((await t.post(token, '/v1/enrollments/import', rosterPayload(2, 2))).statusCode).toBe(200);
    const survey = await createSurvey(t, company.id);
    for (const i of [0, 1, 2]) {
      const res = await t.post(token, `/v1/forms/${survey.form.id}/invites`, { email: `s${i}@school.test`, externalId: studentId(i) });
      expect(res.statusCode).toBe(201);
    }
    const result = await ratesCommand(rt, { args: [], opts: { company: company.slug, form: 'course-survey', by: ['class'] } });
    expect(result.rates.overall).toMatchObject({ invited: 3, responded: 0, rates: { responded: 0 } });
    expect(result.rates.groups.class.map((g) => [g.code, g.enrolled, g.invited])).toEqual([['C0', 2, 2], ['C1', 2, 1]]);
    expect(result.rates.groups.course).toEqual([]);
    const lines = describeRates(result).split('\n');
    expect(lines[0]).toBe(`form course-survey: response rates at ${t.clock.now().toISOString()}`);
    expect(lines).toContain('by class');
    expect(lines.find((line) => line.includes('Class 1 (C1)'))).toMatch(/Class 1 \(C1\)\s+2\s+1\s+0\s+0\s+0\s+0\s+0\s+0\.0%$/);
    expect(lines.some((line) => line.startsWith('by course'))).toBe(false);
  });

  it("another company's form is not found", async () => {
    const owner = await t.company();
    const other = await t.company();
    const survey = await createSurvey(t, owner.id);
    await expect(ratesCommand(rt, { args: [], opts: { company: other.slug, form: survey.form.id } }).catch((e) => describeError(e))).resolves.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
